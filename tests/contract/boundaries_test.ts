/**
 * Import boundaries and content rules of STYLE.md S9 (one allow-list per folder): they hold across the repository,
 * and each rule fails on a planted violation (a file written into a scratch tree).
 *
 * @module
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { findViolations, NEUTRAL_CONTENT, RULES, UPWARD } from "../../scripts/check_boundaries.ts";

/** Finds the violations of a scratch tree holding `files` (path → text). */
async function violationsOf(files: Record<string, string>) {
  const root = await Deno.makeTempDir({ prefix: "cua-boundaries-" });
  try {
    for (const [path, text] of Object.entries(files)) {
      await Deno.mkdir(join(root, dirname(path)), { recursive: true });
      await Deno.writeTextFile(join(root, path), text);
    }
    return await findViolations(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

const imports = (to: string) => `import { x } from "${to}";\nexport const y = x;\n`;

/** One planted import per folder rule: [rule name, file, what it imports]. */
const PLANTED_IMPORTS: [string, string, string][] = [
  ["ffi", "ffi/linux/x11.ts", "../../src/ports/errors.ts"],
  ["ffi", "ffi/linux/x11.ts", "node:fs"],
  ["ports", "src/ports/screen.ts", "../kernel/registry.ts"],
  ["ports", "src/ports/screen.ts", "../lib/image/png.ts"],
  ["lib", "src/lib/image/png.ts", "../../kernel/registry.ts"],
  ["lib", "src/lib/dbus/connection.ts", "../../backends/linux/mod.ts"],
  ["kernel", "src/kernel/registry.ts", "../engine/click.ts"],
  ["kernel", "src/kernel/registry.ts", "../features/recording/recorder.ts"],
  ["kernel", "src/kernel/registry.ts", "../backends/linux/mod.ts"],
  ["kernel", "src/kernel/registry.ts", "../../ffi/linux/x11.ts"],
  ["kernel", "src/kernel/registry.ts", "../transports/cli/mod.ts"],
  ["kernel", "src/kernel/registry.ts", "../../tools/mod.ts"],
  ["kernel", "src/kernel/registry.ts", "../backends/mod.ts"],
  ["kernel", "src/kernel/registry.ts", "@connectrpc/connect"],
  ["engine", "src/engine/click.ts", "../features/browser/store.ts"],
  ["engine", "src/engine/click.ts", "../backends/linux/input.ts"],
  ["features", "src/features/browser/act.ts", "../recording/recorder.ts"],
  ["features", "src/features/browser/act.ts", "../../../tools/mod.ts"],
  ["tools", "tools/input/click.ts", "../../ffi/linux/x11.ts"],
  ["tools", "tools/input/click.ts", "../../src/backends/linux/input.ts"],
  ["tools", "tools/input/click.ts", "../../src/transports/cli/mod.ts"],
  ["tools", "tools/input/click.ts", "../../src/backends/fake/mod.ts"],
  ["tools", "tools/input/click.ts", "yaml"],
  ["backends-selector", "src/backends/mod.ts", "./linux/x11/connection.ts"],
  ["backends-shared", "src/backends/posix/process.ts", "../linux/os/proc_fs.ts"],
  ["backends-shared", "src/backends/fake/mod.ts", "../../../tools/mod.ts"],
  ["backends-os", "src/backends/linux/mod.ts", "../darwin/mod.ts"],
  ["backends-os", "src/backends/linux/apps.ts", "../../../tools/mod.ts"],
  ["backends-os", "src/backends/windows/mod.ts", "../posix/process.ts"],
  ["backends-os", "src/backends/linux/apps.ts", "../../transports/cli/mod.ts"],
  ["backends-os", "src/backends/linux/apps.ts", "../../engine/click.ts"],
  ["backends-os", "src/backends/linux/apps.ts", "../../kernel/registry.ts"],
  ["backends-os", "src/backends/wayland/screen.ts", "../linux/x11/connection.ts"],
  ["backends-os", "src/backends/wayland/screen.ts", "../linux/screen.ts"],
  ["transports", "src/transports/cli/mod.ts", "../../backends/linux/mod.ts"],
  ["transports", "src/transports/cli/mod.ts", "../../backends/mod.ts"],
  ["transports", "src/transports/cli/mod.ts", "../../../ffi/linux/x11.ts"],
  ["transports", "src/transports/cli/mod.ts", "../../../tools/input/click.ts"],
  ["transports", "src/transports/cli/mod.ts", "../../engine/click.ts"],
  ["entry", "src/main.ts", "../ffi/linux/x11.ts"],
  ["entry", "src/main.ts", "./backends/linux/mod.ts"],
];

Deno.test("import boundaries: every folder rule fails on a planted import outside its allow-list", async () => {
  const tested = new Set<string>();
  for (const [rule, file, target] of PLANTED_IMPORTS) {
    const found = await violationsOf({ [file]: imports(target) });
    assert.equal(found.length, 1, `${file} importing ${target}: ${JSON.stringify(found)}`);
    assert.ok(found[0].rule.startsWith(`${rule}:`), `${file} importing ${target}: ${found[0].rule}`);
    tested.add(rule);
  }
  assert.deepEqual(
    [...tested].sort(),
    RULES.map((r) => r.name).sort(),
    "every folder rule has a planted case",
  );
});

Deno.test("import boundaries: what each folder may import passes", async () => {
  const found = await violationsOf({
    "ffi/linux/x11.ts": imports("../_open.ts"),
    "src/ports/backend.ts": imports("./screen.ts"),
    "src/lib/image/png.ts": imports("../../ports/screen.ts") + imports("../process_resources.ts") +
      imports("node:zlib"),
    "src/kernel/registry.ts": imports("../ports/accessibility.ts") + imports("../lib/schema/mod.ts") +
      imports("../ports/errors.ts"),
    "src/engine/click.ts": imports("../kernel/registry.ts") + imports("./outcome.ts"),
    "src/features/browser/act.ts": imports("../../engine/outcome.ts") + imports("./tab.ts") +
      imports("../../lib/devtools/cdp_client.ts"),
    "src/backends/linux/x11/capture.ts": imports("../../../../ffi/linux/x11.ts") +
      imports("../../posix/process.ts") + imports("../../../lib/x11/wire.ts"),
    "src/backends/linux/apps.ts": imports("../../ports/errors.ts") + imports("../../ports/apps.ts") +
      imports("node:path") + imports("../../kernel/safe_files.ts"),
    "src/backends/wayland/accessibility.ts": imports("../linux/accessibility.ts") +
      imports("../linux/atspi/atspi_backend.ts") + imports("../linux/xdg/launch.ts") +
      imports("../../../ffi/linux/libc.ts"),
    "src/backends/mod.ts": imports("./linux/mod.ts") + imports("./wayland/mod.ts") +
      imports("../ports/backend.ts"),
    "tools/input/click.ts": imports("../../src/engine/click.ts") + imports("../../src/ports/input.ts") +
      imports("../../src/features/agent_cursor/follow.ts"),
    "src/transports/cli/mod.ts": imports("../../kernel/registry.ts") + imports("../../../tools/mod.ts") +
      imports("../mcp/server.ts") + imports("@modelcontextprotocol/sdk/server/mcp.js"),
    "src/main.ts": imports("./backends/mod.ts") + imports("./transports/cli/mod.ts"),
    // Test files and test helpers are outside the rules.
    "src/kernel/registry_test.ts": imports("../backends/fake/mod.ts") + "new Deno.Command('x');\n",
  });
  assert.deepEqual(found, []);
});

Deno.test("import boundaries: an upward import is allowed only as listed in UPWARD", async () => {
  assert.ok(UPWARD.length > 0 && UPWARD.every((u) => u.why.length > 0));
  const listed = UPWARD[0];
  const depth = listed.file.split("/").length - 1;
  const spec = "../".repeat(depth) + listed.to;
  assert.deepEqual(await violationsOf({ [listed.file]: imports(spec) }), []);
  const other = await violationsOf({ "src/kernel/session.ts": imports("../features/browser/store.ts") });
  assert.equal(other.length, 1, JSON.stringify(other));
});

/** One planted text per content rule, each in the core and in a tool. */
const PLANTED_TEXT: Record<string, string> = {
  "no-proc": "const exe = Deno.readLinkSync(`/proc/${pid}/exe`);\n",
  "no-deno-command": 'await new Deno.Command("ffmpeg").output();\n',
  "no-build-os": 'if (Deno.build.os === "linux") run();\n',
  "no-path-parsing": 'const dirs = Deno.env.get("PATH")?.split(":");\n',
  "no-unix-socket": 'await Deno.connect({ transport: "unix", path });\n',
  "no-package-manager": 'const argv = ["apt-get", "install", "-y", "ffmpeg"];\n',
  "no-atspi-roles": 'if (node.platformRole === "scroll pane") skip();\nconst combo = /combo box/;\n',
};

Deno.test("content rules: the core and the tools fail on each planted piece of OS work", async () => {
  assert.deepEqual(Object.keys(PLANTED_TEXT).sort(), NEUTRAL_CONTENT.map((c) => c.name).sort());
  for (const [name, text] of Object.entries(PLANTED_TEXT)) {
    for (const file of ["src/engine/click.ts", "src/kernel/registry.ts", "tools/input/click.ts"]) {
      const found = await violationsOf({ [file]: text });
      assert.ok(
        found.some((v) => v.rule.includes(`/${name}:`)),
        `${name} in ${file}: ${JSON.stringify(found)}`,
      );
    }
    // A comment may say what the code must not do.
    const commented = text.trimEnd().split("\n").map((line) => `// ${line}`).join("\n");
    assert.deepEqual(await violationsOf({ "src/kernel/x.ts": commented }), []);
  }
});

Deno.test("content rules: Deno.dlopen outside ffi/_open.ts and a bare Error in an OS folder fail", async () => {
  const dlopen = await violationsOf({ "ffi/linux/x.ts": 'Deno.dlopen("libX11.so.6", {});\n' });
  assert.ok(dlopen.some((v) => v.rule.includes("dlopen-in-open")), JSON.stringify(dlopen));
  assert.deepEqual(await violationsOf({ "ffi/_open.ts": 'Deno.dlopen("libX11.so.6", {});\n' }), []);
  const bare = await violationsOf({ "src/backends/linux/x.ts": 'throw new Error("no MIT-SHM");\n' });
  assert.ok(bare.some((v) => v.rule.includes("no-bare-error")), JSON.stringify(bare));
});

Deno.test("import boundaries and content rules hold across the repository", async () => {
  assert.deepEqual(await findViolations(), []);
});
