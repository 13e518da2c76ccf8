/**
 * Cross-app cells of LibreOffice Writer and Calc (gtk3 plugin, one soffice.bin), judged by
 * the document's paragraphs and cells as an independent AT-SPI reader sees them.
 *
 * @module
 */
import { type CrossApp, type CrossContext, element, oracle, pixel } from "./cell.ts";
import { call, delivered, FG, MIXED } from "./expect.ts";
import { states, texts } from "./reader.ts";

/** A LibreOffice user profile that skips the first-start dialogs (tip of the day). */
export async function libreOfficeProfile(dir: string): Promise<string> {
  await Deno.mkdir(`${dir}/user`, { recursive: true });
  const item = (path: string, name: string, value: string) =>
    `<item oor:path="${path}"><prop oor:name="${name}" oor:op="fuse"><value>${value}</value></prop></item>`;
  await Deno.writeTextFile(
    `${dir}/user/registrymodifications.xcu`,
    `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
${item("/org.openoffice.Office.Common/Misc", "ShowTipOfTheDay", "false")}
${item("/org.openoffice.Office.Common/Misc", "FirstRun", "false")}
${item("/org.openoffice.Setup/Product", "ooSetupLastVersion", "7.4")}
</oor:items>
`,
  );
  return `-env:UserInstallation=file://${dir}`;
}

/** The document's paragraphs, as LibreOffice Writer exposes them. */
function paragraphs() {
  return async (ctx: CrossContext) => await texts(ctx.app.pid, "paragraph");
}

/** LibreOffice Writer (gtk3 plugin): typing into the document, keys, undo, the View menu. */
export function writer(profile: string): CrossApp {
  const doc = (says: string, intended: (b: string[], a: string[]) => boolean) =>
    oracle(says, paragraphs(), intended);
  return {
    name: "writer",
    launch: {
      launch_path: "soffice",
      additional_arguments: [profile, "--writer", "--norestore", "--nologo"],
    },
    window: (w) => /LibreOffice Writer/.test(w.title),
    hasTree: true,
    cells: [
      {
        id: "writer.type_text.element.bg.mixed",
        calls: call(
          "type_text",
          (_c, s) => ({ element_token: element(s, "paragraph").element_token, text: MIXED }),
        ),
        oracle: doc(`the first paragraph gets "${MIXED}"`, (_b, a) => (a[0] ?? "").includes(MIXED)),
        expect: delivered,
      },
      {
        id: "writer.press_key.none.bg.return",
        calls: call("press_key", (c) => ({ target: c.app.target, key: "Return" })),
        oracle: doc("a paragraph is added", (b, a) => a.length === b.length + 1),
        expect: delivered,
      },
      {
        id: "writer.type_text.none.bg.keys",
        calls: call("type_text", (c) => ({ target: c.app.target, text: "second line" })),
        oracle: doc('the new paragraph reads "second line"', (_b, a) => a.includes("second line")),
        expect: delivered,
      },
      {
        id: "writer.hotkey.none.bg.undo",
        calls: call("hotkey", (c) => ({ target: c.app.target, keys: ["ctrl", "z"] })),
        oracle: doc(
          "the typing is undone",
          (b, a) => b.includes("second line") && !a.includes("second line"),
        ),
        expect: delivered,
      },
      {
        id: "writer.click.pixel.bg.document",
        calls: call(
          "click",
          (c, s) => ({ target: c.app.target, ...pixel(s, element(s, "paragraph"), 0.02) }),
        ),
        oracle: oracle(
          "the caret moves to the start of the first paragraph",
          async (ctx) => (await states(ctx.app.pid, "paragraph"))[0]?.caret ?? null,
          (b, a) => a !== b && a === 0,
        ),
        expect: delivered,
      },
      {
        id: "writer.invoke_menu.none.bg.status_bar",
        calls: call(
          "invoke_menu",
          (c) => ({ pid: c.app.pid, window_id: c.app.windowId, path: ["View", "Status Bar"] }),
        ),
        oracle: oracle(
          "the status bar is hidden",
          async (ctx) => (await states(ctx.app.pid, "status bar")).length,
          (b, a) => b > 0 && a === 0,
        ),
        expect: delivered,
      },
    ],
  };
}

/** The text of a Calc cell, read by its name ("B2"). */
function cell(name: string) {
  return async (ctx: CrossContext) => {
    const found = (await states(ctx.app.pid, "table cell", name))[0];
    return { text: found?.text ?? null, selected: found ? found.selected || found.focused : null };
  };
}

/**
 * LibreOffice Calc in a LibreOffice of its own (its own profile): cells by element and by
 * keys. Started as a second window of Writer's process instead, it cannot be activated
 * (the window manager does not confirm it active and focused) and a key it receives in
 * background makes LibreOffice activate it.
 */
export function calc(profile: string): CrossApp {
  return {
    name: "calc",
    launch: { launch_path: "soffice", additional_arguments: [profile, "--calc", "--norestore", "--nologo"] },
    window: (w) => /LibreOffice Calc/.test(w.title),
    hasTree: true,
    cells: [
      {
        id: "calc.click.element.bg.cell",
        calls: call("click", (_c, s) => ({ element_token: element(s, "table cell", "B2").element_token })),
        oracle: oracle(
          "B2 becomes the current cell",
          cell("B2"),
          (b, a) => !b.selected && a.selected === true,
        ),
        expect: delivered,
      },
      {
        id: "calc.type_text.none.bg.cell",
        calls: (c) => [
          { tool: "type_text", args: { target: c.app.target, text: "42" } },
          { tool: "press_key", args: { target: c.app.target, key: "Return" } },
        ],
        oracle: oracle("B2 reads 42", cell("B2"), (_b, a) => a.text === "42"),
        expect: delivered,
      },
      {
        id: "calc.click.pixel.fg.cell",
        calls: call(
          "click",
          (c, s) => ({ target: c.app.target, ...pixel(s, element(s, "table cell", "D4")), ...FG }),
        ),
        oracle: oracle(
          "D4 becomes the current cell",
          cell("D4"),
          (b, a) => !b.selected && a.selected === true,
        ),
        expect: delivered,
      },
    ],
  };
}
