/**
 * `cua-driver demo`: the README's main job. Starts (or joins) a desktop,
 * launches a real app, observes it through the same tools an agent uses, acts
 * on it, and prints what it saw.
 *
 * @module
 */
import { launcherPath } from "./kernel/build_info.ts";
import type { ToolRegistry } from "./kernel/registry.ts";
import type { ToolResult } from "./kernel/result.ts";
import type { ParsedArgs } from "./transports/cli/args.ts";

const DEFAULT_APP = "gtk3-widget-factory";
/** launch_app waits a few seconds for a window; on a loaded machine the demo waits this long in all. */
const WINDOW_WAIT_MS = 60_000;

type Window = { window_id: number; title: string };

/**
 * The MCP client configuration that starts this installation: its launcher's absolute path
 * (`cua-driver` is on PATH only after `npm install -g .`).
 */
export function mcpConfigLine(): string {
  const command = launcherPath();
  return `\nAn MCP client starts this driver with:\n${
    JSON.stringify({ mcpServers: { "cua-driver": { command, args: ["mcp"] } } })
  }\n(${command} is the cua-driver command of this clone; "npm install -g ." puts cua-driver on PATH.)`;
}

/** Polls list_windows until the process shows a window on screen, or WINDOW_WAIT_MS passes. */
async function waitForWindow(registry: ToolRegistry, lease: string, pid: number): Promise<Window[]> {
  console.log(`(waiting for pid ${pid} to show a window)`);
  const deadline = performance.now() + WINDOW_WAIT_MS;
  while (performance.now() < deadline) {
    const listed = await registry.call("list_windows", { pid, on_screen_only: true }, {
      lease,
      transport: "cli",
    });
    const windows = (listed.structuredContent?.windows ?? []) as Window[];
    if (!listed.isError && windows.length) return windows;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return [];
}

/** Runs the demo; returns an exit code. */
export async function runDemo(registry: ToolRegistry, args: ParsedArgs): Promise<number> {
  const app = typeof args.flags.get("--app") === "string" ? args.flags.get("--app") as string : DEFAULT_APP;
  const lease = `cli-demo-${crypto.randomUUID()}`;
  const call = async (name: string, toolArgs: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const started = performance.now();
    const result: ToolResult = await registry.call(name, toolArgs, { lease, transport: "cli" });
    const ms = (performance.now() - started).toFixed(0);
    const text = result.content.find((p) => p.type === "text")?.text ?? "";
    console.log(`\n$ ${name} ${JSON.stringify(toolArgs)}   (${ms} ms)`);
    if (result.isError) throw new Error(`${name} failed: ${text}`);
    console.log(text.split("\n").slice(0, 12).join("\n"));
    return result.structuredContent ?? {};
  };

  try {
    await call("get_screen_size", {});
    const launched = await call("launch_app", { launch_path: app });
    const pid = launched.pid as number;
    const windows = (launched.windows as Window[] | undefined)?.length
      ? launched.windows as Window[]
      : await waitForWindow(registry, lease, pid);
    if (!windows.length) {
      throw new Error(`${app} (pid ${pid}) opened no window within ${WINDOW_WAIT_MS / 1000} s`);
    }
    const windowId = windows[0].window_id;

    const state = await call("get_window_state", {
      pid,
      window_id: windowId,
      screenshot_out_file: "cua-demo-window.png",
    });
    const elements = state.elements as { role: string; label: string; element_token: string }[];
    const roles = new Map<string, number>();
    for (const e of elements) roles.set(e.role, (roles.get(e.role) ?? 0) + 1);
    console.log(
      `\nSaw ${elements.length} actionable elements in ${JSON.stringify(state.title)}: ` +
        [...roles].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([r, n]) => `${n} ${r}`).join(", "),
    );
    console.log(
      `Window screenshot: ${state.screenshot_file_path} (${state.screenshot_width}x${state.screenshot_height})`,
    );

    // Act by element, in the background, and read the effect back.
    const entry = elements.find((e) => e.role === "text" && e.label === "entry") ??
      elements.find((e) => e.role === "text");
    if (entry) {
      const typed = await call("type_text", {
        element_token: entry.element_token,
        text: "typed by cua-driver: ",
      });
      console.log(
        `\nTyped into ${entry.role} ${
          JSON.stringify(entry.label)
        }: effect=${typed.effect} route=${typed.route}`,
      );
    }
    const toggle = elements.find((e) => e.role === "check box");
    if (toggle) {
      const clicked = await call("click", { element_token: toggle.element_token });
      console.log(
        `Clicked ${toggle.role} ${
          JSON.stringify(toggle.label)
        }: effect=${clicked.effect} route=${clicked.route}`,
      );
    }
    const after = await call("get_window_state", {
      pid,
      window_id: windowId,
      include_screenshot: false,
      query: "typed by cua-driver",
    });
    const typed = (after.elements as { label: string }[]).find((e) =>
      e.label.includes("typed by cua-driver")
    );
    console.log(`Read back from the app: ${typed?.label ?? "(not found)"}`);

    const frame = await call("set_window_frame", {
      pid,
      window_id: windowId,
      x: 80,
      y: 60,
      width: 1400,
      height: 800,
    });
    console.log(`\nMoved and resized the window: effect=${frame.effect} route=${frame.route}`);

    const desktop = await call("get_desktop_state", { screenshot_out_file: "cua-demo-desktop.png" });
    console.log(`Desktop screenshot: ${desktop.screenshot_file_path}`);

    await call("kill_app", { pid });
    console.log("\nDemo finished.");
    console.log(mcpConfigLine());
    return 0;
  } catch (error) {
    console.error(`\ncua-driver demo: ${(error as Error).message}`);
    return 1;
  }
}
