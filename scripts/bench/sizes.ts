/**
 * What an agent pays in context: the bytes of tools/list as an MCP client receives them (all
 * tools, and the core profile)
 * and the characters of get_window_state (text parts plus structuredContent, the image
 * left out) on stock Debian apps: mousepad, its Save As dialog, gtk3-widget-factory and
 * galculator; and the budget per profile (tools/list of `all`, `core`, `anthropic`, `openai`, with an
 * estimated token count at 4 bytes a token) and, per app, a typical successor diff (press_key Tab
 * with `return_state: "diff"`: the focus moves) beside the full observation. Run by scripts/bench.ts; `--only sizes` runs just this. Needs the Debian packages
 * mousepad, gtk-3-examples and galculator, which the bench installs with its peers
 * (scripts/bench/peers.ts); the test suite does not need galculator, so scripts/setup.sh leaves it out.
 *
 * @module
 */
import type { ToolResult } from "../../src/kernel/result.ts";

/** One tool call, in-process. */
export type Call = (name: string, args: Record<string, unknown>) => Promise<ToolResult>;

/** Sizes of one observation. */
export interface ObservationSize {
  window: string;
  /** Text parts plus JSON of structuredContent. */
  chars: number;
  text_chars: number;
  structured_chars: number;
  elements: number;
  /** Characters of the successor_state a press_key Tab with return_state "diff" returned. */
  diff_chars?: number;
}

/** Every size the report shows. */
export interface SizeReport {
  commit: string;
  tools_list_bytes: number;
  tools_list_core_bytes: number | null;
  /** tools/list bytes of the vocabulary profiles. */
  tools_list_profile_bytes?: Record<string, number>;
  tools: number;
  observations: ObservationSize[];
}

/** Characters an agent receives from one result: text parts and structured content, not images. */
export function resultChars(result: ToolResult): { text: number; structured: number } {
  const text = result.content.reduce((n, part) => n + (part.type === "text" ? part.text.length : 0), 0);
  const structured = result.structuredContent ? JSON.stringify(result.structuredContent).length : 0;
  return { text, structured };
}

async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (true) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

async function windowsOf(call: Call, pid: number): Promise<{ window_id: number; title: string }[]> {
  const listed = await call("list_windows", { pid });
  return (listed.structuredContent?.windows ?? []) as { window_id: number; title: string }[];
}

/** Observes a window once its tree has settled (two equal element counts in a row). */
async function observe(call: Call, name: string, pid: number, windowId: number): Promise<ObservationSize> {
  let last = -1;
  const result = await until(`${name}'s accessibility tree`, async () => {
    // As an agent calls it: with the screenshot (whose image part is not counted).
    const state = await call("get_window_state", { pid, window_id: windowId });
    const count = (state.structuredContent?.element_count as number | undefined) ?? 0;
    const settled = count > 3 && count === last;
    last = count;
    return settled ? state : null;
  });
  const { text, structured } = resultChars(result);
  // A typical act with its successor diff: Tab moves the focus (background keys, nothing raised).
  const act = await call("press_key", {
    target: { kind: "window", pid, window_id: windowId },
    key: "Tab",
    return_state: "diff",
  });
  const successor = act.structuredContent?.successor_state;
  return {
    window: name,
    chars: text + structured,
    text_chars: text,
    structured_chars: structured,
    elements: result.structuredContent?.element_count as number,
    ...(successor ? { diff_chars: JSON.stringify(successor).length } : {}),
  };
}

/** Launches `program`, measures its first window (and `extra` ones it opens), then kills it. */
async function measureApp(
  call: Call,
  env: Record<string, string>,
  name: string,
  program: string,
  extra?: (pid: number, windowId: number) => Promise<ObservationSize[]>,
): Promise<ObservationSize[]> {
  const found = await new Deno.Command("sh", { args: ["-c", `command -v ${program}`], stdout: "null" })
    .output();
  if (!found.success) {
    throw new Error(
      `${program} is not installed: apt-get install -y ${
        program === "gtk3-widget-factory" ? "gtk-3-examples" : program
      }`,
    );
  }
  const home = await Deno.makeTempDir({ prefix: "cua-bench-home-" });
  const child = new Deno.Command(program, {
    env: { ...env, HOME: home, XDG_CONFIG_HOME: `${home}/.config` },
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    const [window] = await until(`${program}'s window`, async () => {
      const windows = await windowsOf(call, child.pid);
      return windows.length ? windows : null;
    });
    const sizes = [await observe(call, name, child.pid, window.window_id)];
    if (extra) sizes.push(...await extra(child.pid, window.window_id));
    return sizes;
  } finally {
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
    await child.status;
    await Deno.remove(home, { recursive: true }).catch(() => {});
  }
}

/** Opens mousepad's Save As dialog with ctrl+shift+s and measures it. */
async function saveAsDialog(call: Call, pid: number, windowId: number): Promise<ObservationSize[]> {
  const pressed = await call("hotkey", {
    target: { kind: "window", pid, window_id: windowId },
    keys: ["ctrl", "shift", "s"],
    delivery_mode: "foreground",
  });
  if (pressed.isError) throw new Error(`hotkey: ${JSON.stringify(pressed.structuredContent)}`);
  const dialog = await until("mousepad's Save As dialog", async () => {
    const windows = await windowsOf(call, pid);
    return windows.find((w) => w.window_id !== windowId) ?? null;
  });
  return [await observe(call, "mousepad Save As dialog", pid, dialog.window_id)];
}

/** A tools/list response as a client received it: the bytes of its line, and how many tools. */
export interface ListingOnWire {
  bytes: number;
  tools: number;
}

/**
 * The tools/list response as an MCP stdio client receives it: starts `cua-driver mcp`
 * (with `args`, e.g. `--tools core`) from `root`, initializes, asks for tools/list and
 * counts the bytes of the response line, newline included.
 */
export async function toolsListOnWire(root: string, args: string[] = []): Promise<ListingOnWire> {
  const child = new Deno.Command(`${root}node_modules/.bin/deno`, {
    args: ["run", "-A", "--cached-only", `${root}src/main.ts`, "mcp", ...args],
    cwd: root,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const send = (message: unknown) => writer.write(new TextEncoder().encode(JSON.stringify(message) + "\n"));
  await send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
  });
  await send({ jsonrpc: "2.0", method: "notifications/initialized" });
  await send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
  let buffered = new Uint8Array(0);
  try {
    for await (const chunk of child.stdout) {
      const joined = new Uint8Array(buffered.length + chunk.length);
      joined.set(buffered);
      joined.set(chunk, buffered.length);
      buffered = joined;
      let newline: number;
      while ((newline = buffered.indexOf(10)) >= 0) {
        const line = buffered.slice(0, newline + 1);
        buffered = buffered.slice(newline + 1);
        const message = JSON.parse(new TextDecoder().decode(line));
        if (message.id === 2) return { bytes: line.length, tools: message.result.tools.length };
      }
    }
    throw new Error("cua-driver mcp closed before answering tools/list");
  } finally {
    await writer.close().catch(() => {});
    await child.status;
  }
}

/** Measures every size on the desktop the runtime behind `call` drives. */
export async function measureSizes(
  call: Call,
  env: Record<string, string>,
  listing: {
    all: () => Promise<ListingOnWire>;
    core: (() => Promise<ListingOnWire>) | null;
    profiles?: Record<string, () => Promise<ListingOnWire>>;
  },
  commit: string,
): Promise<SizeReport> {
  const all = await listing.all();
  const observations = [
    ...await measureApp(call, env, "mousepad", "mousepad", (pid, id) => saveAsDialog(call, pid, id)),
    ...await measureApp(call, env, "gtk3-widget-factory", "gtk3-widget-factory"),
    ...await measureApp(call, env, "galculator", "galculator"),
  ];
  return {
    commit,
    tools_list_bytes: all.bytes,
    tools_list_core_bytes: listing.core ? (await listing.core()).bytes : null,
    tools_list_profile_bytes: Object.fromEntries(
      await Promise.all(
        Object.entries(listing.profiles ?? {}).map(async ([name, list]) =>
          [name, (await list()).bytes] as const
        ),
      ),
    ),
    tools: all.tools,
    observations,
  };
}

/** The "## Sizes" section of bench/results.md: before (main when issue 12 began) and now. */
export function sizesMarkdown(before: SizeReport | null, after: SizeReport, date: string): string {
  const k = (n: number | null | undefined) =>
    n === null || n === undefined ? "–" : `${(n / 1000).toFixed(1)}k`;
  const ratio = (b: number | null | undefined, a: number | null | undefined) =>
    b && a ? `${(100 * a / b).toFixed(0)}%` : "–";
  const rows = [
    `| tools/list, all ${after.tools} tools (bytes) | ${k(before?.tools_list_bytes)} | ${
      k(after.tools_list_bytes)
    } | ${ratio(before?.tools_list_bytes, after.tools_list_bytes)} | ≤ 61k |`,
    `| tools/list, \`--tools core\` (bytes) | – | ${k(after.tools_list_core_bytes)} | | < 20k |`,
    ...after.observations.map((o) => {
      const b = before?.observations.find((x) => x.window === o.window);
      return `| get_window_state ${o.window} (characters; text + structured) | ${k(b?.chars)} (${
        k(b?.text_chars)
      } + ${k(b?.structured_chars)}) | ${k(o.chars)} (${k(o.text_chars)} + ${k(o.structured_chars)}) | ${
        ratio(b?.chars, o.chars)
      } | ≤ 50% |`;
    }),
  ];
  const tokens = (bytes: number | null | undefined) =>
    bytes ? `~${Math.round(bytes / 4).toLocaleString("en")}` : "–";
  const profiles = [
    ["all", after.tools_list_bytes],
    ["core", after.tools_list_core_bytes],
    ...Object.entries(after.tools_list_profile_bytes ?? {}),
  ] as [string, number | null][];
  const budget = [
    ...profiles.map(([name, n]) =>
      `| tools/list \`--tools ${name}\` | ${n === null ? "–" : n.toLocaleString("en")} | ${tokens(n)} | |`
    ),
    ...after.observations.map((o) =>
      `| get_window_state ${o.window} | ${o.chars.toLocaleString("en")} | ${tokens(o.chars)} | |`
    ),
    ...after.observations.filter((o) => o.diff_chars !== undefined).map((o) =>
      `| diff after press_key Tab, ${o.window} | ${o.diff_chars!.toLocaleString("en")} | ${
        tokens(o.diff_chars)
      } | ${(o.chars / o.diff_chars!).toFixed(1)}x smaller |`
    ),
  ];
  return `## Sizes (\`deno run -A scripts/bench.ts --only sizes\`, ${date})

What an agent pays in context. tools/list is the \`tools/list\` response line as an MCP stdio client
receives it (JSON-RPC envelope and newline included; entries without their capability tokens, which
\`manifest\` and \`describe\` give); an observation is
get_window_state (with its screenshot) without the image part: its text parts plus the JSON of
structuredContent. Before: main at
${before?.commit ?? "(not recorded)"}; now: ${after.commit}.

| Measure | Before | Now | Now / before | Target |
| --- | --- | --- | --- | --- |
${rows.join("\n")}

Budget per profile and observation (characters; tokens estimated at 4 characters a token; a diff is
the \`successor_state\` of \`press_key\` Tab with \`return_state: "diff"\`, against the full
observation of the same window):

| What | Characters | Tokens (est.) | Diff vs full |
| --- | --- | --- | --- |
${budget.join("\n")}
`;
}

/**
 * Measures every size with a runtime of its own on the current desktop and writes the
 * `sizes` key of bench/results.json and the "## Sizes" section of bench/results.md, keeping
 * the recorded "before" (or recording this run as it with `recordBefore`).
 */
export async function runSizeReport(root: string, recordBefore = false): Promise<string> {
  const { startRuntime } = await import("../../src/runtime.ts");
  const runtime = await startRuntime({ desktop: "system", permissionMode: "standard" });
  try {
    const call: Call = (name, args) =>
      runtime.registry.call(name, args, { lease: "bench-sizes", transport: "cli" });
    const head = await new Deno.Command("git", { args: ["rev-parse", "--short", "HEAD"], cwd: root })
      .output();
    const report = await measureSizes(call, Deno.env.toObject(), {
      all: () => toolsListOnWire(root),
      core: () => toolsListOnWire(root, ["--tools", "core"]),
      profiles: {
        anthropic: () => toolsListOnWire(root, ["--tools", "anthropic"]),
        openai: () => toolsListOnWire(root, ["--tools", "openai"]),
      },
    }, new TextDecoder().decode(head.stdout).trim());
    const jsonPath = `${root}bench/results.json`;
    const previous = JSON.parse(await Deno.readTextFile(jsonPath).catch(() => "{}"));
    const before: SizeReport | null = recordBefore ? report : previous.sizes?.before ?? null;
    const date = new Date().toISOString();
    await Deno.writeTextFile(
      jsonPath,
      JSON.stringify({ ...previous, sizes: { before, after: report, date } }, null, 2) + "\n",
    );
    const mdPath = `${root}bench/results.md`;
    const md = (await Deno.readTextFile(mdPath).catch(() => "")).replace(/\n## Sizes[\s\S]*?(?=\n## |$)/, "");
    const section = sizesMarkdown(before, report, date);
    await Deno.writeTextFile(mdPath, md.trimEnd() + "\n\n" + section);
    return section;
  } finally {
    await runtime.close();
  }
}
