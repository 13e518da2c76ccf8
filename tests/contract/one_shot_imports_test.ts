/**
 * What a one-shot CLI tool call loads, held two ways:
 * - statically: the modules reachable from the entry points its path imports (src/main.ts, then
 *   on demand the tool, the runtime, the Linux back end and the permission resolver), read from
 *   `deno info --json`, dynamic `import()`s not followed;
 * - at run time: every module Deno reads or evaluates when `cua-driver get_screen_size` runs
 *   through bin/cua-driver (its `DENO_LOG=debug` lines), which also catches a literal
 *   `import()` loaded before main.ts starts (the launcher's `--unstable-lazy-dynamic-imports`).
 * The call must not load gRPC, MCP, the daemon, the browser, recording (their runtime slots' few-line
 * definitions aside), perception, AT-SPI or
 * input code, any other OS's back end, any `node:` module (the first one loads Deno's Node
 * compatibility layer) or any npm package (the first one starts Deno's npm resolver; tool schemas are
 * src/lib/schema/, not zod). Nor the code of facilities the call does not use, which loads at first
 * use: the agent cursor (its animation and themes, the X11 overlay window), screen capture and
 * covered-window redirection, the window list, running programs, the other commands' code (help,
 * describe, manifest), and Xlib itself (the screen's size comes over the X protocol, x11/wire.ts). A daemon-backed `cua-driver call <tool>` loads less still: no tool, no registry.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { startDaemon } from "../_helpers/daemon.ts";
import { hasDesktop } from "../_helpers/desktop_env.ts";
import { denoEnv, driverEnv } from "../_helpers/driver.ts";
import { LAZY_IMPORTS, V8_FLAGS } from "../../scripts/deno_child.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** What `cua-driver get_screen_size` imports, in order, on Linux. */
const ENTRIES = [
  "src/main.ts",
  "tools/screen/get_screen_size.ts",
  "src/features/permissions/config.ts",
  "src/runtime.ts",
  "src/backends/linux/mod.ts",
];
/** Never on that path. */
const FORBIDDEN = [
  /^src\/transports\/(network\/|mcp\/|daemon\/|cli\/daemon)/,
  /^src\/(features\/(browser|recording|perception)\/(?!slot\.ts$)|lib\/devtools\/)/,
  /^src\/lib\/image\/png/,
  /^src\/(backends\/linux\/((atspi|x11\/input|perception)\/|(accessibility|input|perception)\.ts$)|lib\/dbus\/)/,
  /^src\/backends\/linux\/(x11\/)?clipboard/,
  // The private desktop and the search for one: not when DISPLAY and the session bus are set.
  /^src\/backends\/linux\/desktop\//,
  /^src\/kernel\/deferred_backend/,
  /^src\/backends\/(darwin|windows)\//,
  /^ffi\/(darwin|windows)\//,
  // Loaded at first use: the agent cursor (for the tools that create one; the overlay at its first frame).
  /^src\/features\/agent_cursor\/(cursor|glide|motion|themes|store)\.ts$/,
  /^src\/backends\/linux\/x11\/cursor\/(overlay_window|arrow)\.ts$/,
  // Capture (MIT-SHM, XGetImage, XComposite redirection), the window list, running programs.
  /^src\/backends\/linux\/(x11\/(capture|composite|properties)|windows)\.ts$/,
  /^ffi\/linux\/(libc|xext|xcomposite)\.ts$/,
  /^src\/lib\/image\/(?!bgrx_image\.ts$)/,
  /^src\/backends\/posix\/process\.ts$/,
  // The command line's other commands.
  /^src\/transports\/cli_(offline|permissions)\.ts$/,
  // Xlib: the screen's size and monitors come over the X protocol itself (x11/wire.ts); libX11's
  // bindings, the Xlib connection and the agent cursor's overlay code load at a call's first other use.
  /^ffi\//,
  /^src\/backends\/linux\/x11\/(connection|server_reset|xlib_screen)\.ts$/,
  /^src\/backends\/linux\/x11\/cursor\/overlay_window\.ts$/,
];

interface InfoModule {
  specifier: string;
  dependencies?: { specifier: string; code?: { specifier?: string }; isDynamic?: boolean }[];
}

/** The modules statically reachable from `entries` (type-only and dynamic imports left out). */
async function staticClosure(entries: string[]): Promise<Set<string>> {
  const graph = new Map<string, InfoModule>();
  for (const entry of entries) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", entry],
      cwd: ROOT,
      env: { DENO_NO_PACKAGE_JSON: "1" },
      stderr: "inherit",
    }).output();
    assert.ok(out.success, `deno info ${entry}`);
    for (const module of JSON.parse(new TextDecoder().decode(out.stdout)).modules as InfoModule[]) {
      graph.set(module.specifier, module);
    }
  }
  const start = entries.map((entry) => new URL(entry, `file://${ROOT}`).href);
  const closure = new Set(start);
  const queue = [...start];
  while (queue.length > 0) {
    for (const dependency of graph.get(queue.shift()!)?.dependencies ?? []) {
      const target = dependency.code?.specifier;
      if (!target || dependency.isDynamic || closure.has(target)) continue;
      closure.add(target);
      queue.push(target);
    }
  }
  return closure;
}

Deno.test({
  name: "a one-shot CLI call loads only its tool, the registry and the Linux screen, and no node: module",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const closure = await staticClosure(ENTRIES);
    const local = [...closure].filter((s) => s.startsWith("file://")).map((s) =>
      s.slice(`file://${ROOT}`.length)
    );
    assert.ok(local.includes("src/backends/linux/screen.ts"), "the screen code is there");
    const forbidden = local.filter((path) => FORBIDDEN.some((rule) => rule.test(path)));
    assert.deepEqual(forbidden, [], "modules a one-shot get_screen_size must not load");
    const builtins = [...closure].filter((s) => s.startsWith("node:"));
    assert.deepEqual(builtins, [], "node: modules (each loads the Node compatibility layer)");
    assert.ok(local.includes("src/lib/schema/mod.ts"), "tool schemas are the driver's own");
    assert.deepEqual([...closure].filter((s) => s.startsWith("npm:")), [], "npm packages");
  },
});

/**
 * Local modules the run-time test allows: 64 today (56 before the stop switch's check, return_state's
 * argument, bounded mode's argument grants and the runtime state's slots, each a small module every
 * call consults). The forbidden subtrees above are the heavy ones; the budget catches a new eager
 * import chain that none of them names (the AT-SPI code alone is over 20 modules), with room for the
 * odd new core module.
 */
const LOCAL_MODULE_BUDGET = 66;

/** The modules one launcher run reads or evaluates, from Deno's debug log: local paths and npm package names. */
async function loadedByLauncher(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; local: string[]; npm: string[] }> {
  const out = await new Deno.Command(`${ROOT}bin/cua-driver`, {
    args,
    env: { ...env, DENO_LOG: "debug" },
    clearEnv: true,
    stdout: "null",
    stderr: "piped",
  }).output();
  const log = new TextDecoder().decode(out.stderr);
  const specifiers = new Set(
    [...log.matchAll(/(?:for ES module|fetch_no_follow - specifier): (\S+?)(?:,|\s|$)/g)].map((m) => m[1]),
  );
  const local = [...specifiers].filter((s) => s.startsWith(`file://${ROOT}`)).map((s) =>
    s.slice(`file://${ROOT}`.length)
  );
  const npm = [...specifiers].flatMap((s) =>
    /\/registry\.npmjs\.org\/((?:@[^/]+\/)?[^/]+)\//.exec(s)?.[1] ?? []
  );
  return { code: out.code, local: local.sort(), npm: [...new Set(npm)].sort() };
}

Deno.test({
  name: "a one-shot get_screen_size through the launcher reads and runs only its own modules",
  ignore: Deno.build.os !== "linux" || !hasDesktop(),
  async fn() {
    const run = await loadedByLauncher(["get_screen_size"], driverEnv());
    assert.equal(run.code, 0);
    assert.ok(
      run.local.includes("src/main.ts") && run.local.includes("src/backends/linux/screen.ts"),
      "the log names modules",
    );
    assert.deepEqual(run.local.filter((path) => FORBIDDEN.some((rule) => rule.test(path))), []);
    assert.ok(
      !run.local.some((path) =>
        path.startsWith("tools/") &&
        !/^tools\/(index|screen\/get_screen_size|_shared\/params)\.ts$/.test(path)
      ),
      `other tools: ${run.local.filter((p) => p.startsWith("tools/"))}`,
    );
    assert.ok(
      run.local.length <= LOCAL_MODULE_BUDGET,
      `${run.local.length} local modules:\n${run.local.join("\n")}`,
    );
    assert.deepEqual(run.npm, [], "npm packages");
  },
});

Deno.test({
  name: "cua-driver --help through the launcher reads only the command line's modules and no npm package",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const run = await loadedByLauncher(["--help"], denoEnv());
    assert.equal(run.code, 0);
    assert.ok(run.local.includes("src/transports/cli/mod.ts"), "the log names modules");
    assert.ok(run.local.length <= 10, run.local.join("\n"));
    assert.deepEqual(run.npm, []);
  },
});

Deno.test({
  name:
    "cua-driver call through the launcher loads only the daemon client: no tool, registry, MCP or npm package",
  ignore: Deno.build.os !== "linux" || !hasDesktop(),
  async fn() {
    const daemon = await startDaemon();
    try {
      const run = await loadedByLauncher(["call", "get_screen_size", "--socket", daemon.socket], driverEnv());
      assert.equal(run.code, 0, "the daemon answered the call");
      assert.ok(run.local.includes("src/transports/daemon/client.ts"), "the log names modules");
      const heavy = run.local.filter((path) =>
        /^src\/(kernel\/registry|runtime|transports\/(mcp\/|daemon\/server|cli\/daemon\.ts|network\/))/.test(
          path,
        ) ||
        /^src\/(backends\/linux\/(mod|x11|atspi|accessibility|screen|windows|clipboard)|lib\/x11)/.test(
          path,
        ) ||
        (path.startsWith("tools/") && path !== "tools/index.ts")
      );
      assert.deepEqual(heavy, [], "a daemon client runs no tool and owns no desktop");
      assert.ok(run.local.length <= 30, `${run.local.length} local modules:\n${run.local.join("\n")}`);
      assert.deepEqual(run.npm, [], "npm packages");
    } finally {
      await daemon.stop();
    }
  },
});

Deno.test("the launcher and deno task start run the driver with the flags the tests and the bench use", async () => {
  const launcher = (await Deno.readTextFile(`${ROOT}bin/cua-driver`)).split(/\s+/);
  const start: string = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).tasks.start;
  for (const flag of [...LAZY_IMPORTS, ...V8_FLAGS]) {
    assert.ok(launcher.includes(flag), `bin/cua-driver passes ${flag}`);
    assert.ok(start.split(" ").includes(flag), `deno task start passes ${flag}`);
  }
});
