/**
 * Cross-app cells of xterm (no accessibility), judged by files the shell writes and by
 * the stock tesseract command reading the window.
 *
 * @module
 */
import { x } from "../_helpers/x11_probe.ts";
import { type CrossApp, oracle } from "./cell.ts";
import { call, delivered, FG, noop, refused } from "./expect.ts";

/** xterm (no accessibility): background keys refused, foreground keys proven by a file and by OCR. */
export function xterm(dir: string): CrossApp {
  const file = (name: string) => `${dir}/${name}`;
  const content = (name: string) => async () => await Deno.readTextFile(file(name)).catch(() => "");
  return {
    name: "xterm",
    launch: {
      launch_path: "xterm",
      additional_arguments: ["-geometry", "100x20+0+0", "-title", "crossapp-xterm"],
    },
    window: (w) => w.title === "crossapp-xterm",
    hasTree: false,
    // The cells compare the window's text before and after: start once the shell's prompt is drawn.
    ready: (ctx) => promptShown(ctx.app.windowId),
    cells: [
      {
        id: "xterm.type_text.none.bg.refused",
        calls: call(
          "type_text",
          (c) => ({ target: c.app.target, text: `echo background > ${file("bg.txt")}` }),
        ),
        oracle: oracle(
          "the terminal shows nothing new (tesseract reads the window)",
          (ctx) => steadyWords(ctx.app.windowId),
          () => false,
        ),
        expect: refused("background_unavailable"),
      },
      {
        id: "xterm.type_text.none.fg.ocr",
        calls: call("type_text", (c) => ({ target: c.app.target, text: "echo foreground-ok", ...FG })),
        oracle: oracle(
          "the terminal shows the typed command (tesseract, run by the test, reads the window)",
          (ctx) => steadyWords(ctx.app.windowId),
          (b, a) => (a.match(/echoforegroundok/g) ?? []).length > (b.match(/echoforegroundok/g) ?? []).length,
        ),
        expect: delivered,
      },
      {
        id: "xterm.press_key.none.fg.return",
        calls: (c) => [
          { tool: "type_text", args: { target: c.app.target, text: ` > ${file("fg.txt")}`, ...FG } },
          { tool: "press_key", args: { target: c.app.target, key: "Return", ...FG } },
        ],
        oracle: oracle(
          "the shell wrote foreground-ok",
          content("fg.txt"),
          (_b, a) => a.trim() === "foreground-ok",
        ),
        expect: delivered,
      },
      {
        id: "xterm.click.pixel.bg.blank",
        calls: call(
          "click",
          (c, s) => ({
            target: c.app.target,
            x: Math.round(s.screenshot_width * 0.8),
            y: Math.round(s.screenshot_height * 0.8),
          }),
        ),
        oracle: oracle(
          "the terminal is unchanged (tesseract reads the window)",
          (ctx) => steadyWords(ctx.app.windowId),
          () => false,
        ),
        expect: noop,
      },
    ],
  };
}

/** Waits until the terminal shows text (the shell's prompt) that reads the same twice in a row. */
async function promptShown(windowId: number): Promise<void> {
  await steadyWords(windowId);
}

/**
 * The window's words once they read the same twice in a row and are not empty: the shell may
 * still be drawing what the last cell's input made it print.
 */
async function steadyWords(windowId: number): Promise<string> {
  const deadline = Date.now() + 120_000;
  let last = "";
  for (;;) {
    const words = await screenWords(windowId);
    if (words !== "" && words === last) return words;
    if (Date.now() > deadline) throw new Error(`xterm shows no steady text: ${JSON.stringify(words)}`);
    last = words;
  }
}

/**
 * The window's text as the stock tesseract command reads it (ImageMagick `import` of the
 * window, scaled 2x), letters and digits only, lowercased.
 */
async function screenWords(windowId: number): Promise<string> {
  const png = await Deno.makeTempFile({ suffix: ".png" });
  try {
    await x("import", "-window", String(windowId), "-resize", "200%", png);
    const output = await new Deno.Command("tesseract", {
      args: [png, "-", "--psm", "6"],
      stdout: "piped",
      stderr: "null",
    })
      .output();
    return new TextDecoder().decode(output.stdout).replace(/[^A-Za-z0-9]/g, "").toLowerCase();
  } finally {
    await Deno.remove(png).catch(() => {});
  }
}
