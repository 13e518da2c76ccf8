/**
 * What a one-shot CLI tool call loads: the modules statically reachable from the entry
 * points its path imports (src/main.ts, then on demand the tool, the runtime, the Linux
 * back end and the permission resolver), read from `deno info --json`. Dynamic `import()`s
 * are not followed: they load only when a command needs them. The call must not load gRPC,
 * MCP, the daemon, the browser, recording, perception, AT-SPI or input code, any other OS's
 * back end, or any `node:` module (the first one loads Deno's Node compatibility layer).
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** What `cua-driver get_screen_size` imports, in order, on Linux. */
const ENTRIES = [
  "src/main.ts",
  "tools/screen/get_screen_size.ts",
  "src/core/permissions/config.ts",
  "src/runtime.ts",
  "src/platform/linux/mod.ts",
];
/** Never on that path. */
const FORBIDDEN = [
  /^src\/transports\/(grpc\/|mcp|daemon|cli_daemon)/,
  /^src\/core\/(browser|recording|perception)\//,
  /^src\/core\/image\/png/,
  /^src\/platform\/linux\/(atspi|input|perception|dbus)\//,
  /^src\/platform\/linux\/x11\/clipboard/,
  /^src\/platform\/(darwin|windows)\//,
  /^ffi\/(darwin|windows)\//,
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
    assert.ok(local.includes("src/platform/linux/x11/screen.ts"), "the screen code is there");
    const forbidden = local.filter((path) => FORBIDDEN.some((rule) => rule.test(path)));
    assert.deepEqual(forbidden, [], "modules a one-shot get_screen_size must not load");
    const builtins = [...closure].filter((s) => s.startsWith("node:"));
    assert.deepEqual(builtins, [], "node: modules (each loads the Node compatibility layer)");
    const packages = [...closure].filter((s) => s.startsWith("npm:")).map((s) => s.replace(/@[^@/]+$/, ""));
    assert.deepEqual([...new Set(packages)], ["npm:zod"], "npm packages");
  },
});
