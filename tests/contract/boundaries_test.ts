/**
 * Import boundaries and content rules of STYLE.md S9: they hold across the repository,
 * and each rule fails on a planted violation (a file written into a scratch tree).
 *
 * @module
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { findViolations, NEUTRAL_CONTENT, RULES } from "../../scripts/check_boundaries.ts";

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
  ["ffi", "ffi/linux/x11.ts", "../../src/core/errors.ts"],
  ["ffi", "ffi/linux/x11.ts", "node:fs"],
  ["platform-types", "src/platform/types.ts", "../core/errors.ts"],
  ["platform-selector", "src/platform/mod.ts", "./linux/x11/screen.ts"],
  ["platform-shared", "src/platform/posix/process.ts", "../linux/proc_fs.ts"],
  ["platform-shared", "src/platform/fake/mod.ts", "../../tools/mod.ts"],
  ["platform-wayland", "src/platform/wayland/mod.ts", "../darwin/mod.ts"],
  ["platform-wayland", "src/platform/wayland/input.ts", "../../../tools/mod.ts"],
  ["platform-os", "src/platform/linux/apps.ts", "../wayland/mod.ts"],
  ["platform-os", "src/platform/linux/mod.ts", "../darwin/mod.ts"],
  ["platform-os", "src/platform/linux/apps.ts", "../../../tools/mod.ts"],
  ["platform-os", "src/platform/windows/mod.ts", "../posix/process.ts"],
  ["platform-os", "src/platform/linux/apps.ts", "../../transports/cli.ts"],
  ["core", "src/core/registry.ts", "../platform/linux/mod.ts"],
  ["core", "src/core/registry.ts", "../../ffi/linux/x11.ts"],
  ["core", "src/core/registry.ts", "../transports/cli.ts"],
  ["core", "src/core/registry.ts", "../../tools/mod.ts"],
  ["core", "src/core/registry.ts", "../platform/mod.ts"],
  ["core", "src/core/registry.ts", "@connectrpc/connect"],
  ["tools", "tools/input/click.ts", "../../ffi/linux/x11.ts"],
  ["tools", "tools/input/click.ts", "../../src/platform/linux/input/mod.ts"],
  ["tools", "tools/input/click.ts", "../../src/transports/cli.ts"],
  ["tools", "tools/input/click.ts", "../../src/platform/fake/mod.ts"],
  ["tools", "tools/input/click.ts", "yaml"],
  ["transports", "src/transports/cli.ts", "../platform/linux/mod.ts"],
  ["transports", "src/transports/cli.ts", "../platform/mod.ts"],
  ["transports", "src/transports/cli.ts", "../../ffi/linux/x11.ts"],
  ["transports", "src/transports/cli.ts", "../../tools/input/click.ts"],
  ["entry", "src/main.ts", "../ffi/linux/x11.ts"],
  ["entry", "src/main.ts", "./platform/linux/mod.ts"],
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
    "src/platform/linux/x11/screen.ts": imports("../../../../ffi/linux/x11.ts") +
      imports("../../posix/process.ts"),
    "src/platform/linux/apps.ts": imports("../../core/errors.ts") + imports("../types.ts") +
      imports("node:path"),
    "src/platform/mod.ts": imports("./linux/mod.ts") + imports("./types.ts"),
    "src/core/registry.ts": imports("../platform/types.ts") + imports("./schema/mod.ts") +
      imports("./errors.ts"),
    "tools/input/click.ts": imports("../../src/core/tool.ts") + imports("../../src/platform/types.ts"),
    "src/transports/cli.ts": imports("../core/registry.ts") + imports("../../tools/mod.ts") +
      imports("@modelcontextprotocol/sdk/server/mcp.js"),
    "src/main.ts": imports("./platform/mod.ts") + imports("./transports/cli.ts"),
    // Test files and test helpers are outside the rules.
    "src/core/registry_test.ts": imports("../platform/fake/mod.ts") + "new Deno.Command('x');\n",
  });
  assert.deepEqual(found, []);
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
    for (const file of ["src/core/action/click.ts", "tools/input/click.ts"]) {
      const found = await violationsOf({ [file]: text });
      assert.ok(
        found.some((v) => v.rule.includes(`/${name}:`)),
        `${name} in ${file}: ${JSON.stringify(found)}`,
      );
    }
    // A comment may say what the code must not do.
    const commented = text.trimEnd().split("\n").map((line) => `// ${line}`).join("\n");
    assert.deepEqual(await violationsOf({ "src/core/x.ts": commented }), []);
  }
});

Deno.test("content rules: Deno.dlopen outside ffi/_open.ts and a bare Error in an OS folder fail", async () => {
  const dlopen = await violationsOf({ "ffi/linux/x.ts": 'Deno.dlopen("libX11.so.6", {});\n' });
  assert.ok(dlopen.some((v) => v.rule.includes("dlopen-in-open")), JSON.stringify(dlopen));
  assert.deepEqual(await violationsOf({ "ffi/_open.ts": 'Deno.dlopen("libX11.so.6", {});\n' }), []);
  const bare = await violationsOf({ "src/platform/linux/x.ts": 'throw new Error("no MIT-SHM");\n' });
  assert.ok(bare.some((v) => v.rule.includes("no-bare-error")), JSON.stringify(bare));
});

Deno.test("import boundaries and content rules hold across the repository", async () => {
  assert.deepEqual(await findViolations(), []);
});
