/**
 * scripts/install.sh, the check a downloaded executable's user runs: its package list
 * covers every program the embedded desktop starts and every library the driver opens
 * (read from this machine's dpkg database), and with packages missing it prints one
 * apt-get line and runs nothing unless asked. dpkg-query, apt-get and sudo are replaced
 * by recording stand-ins on PATH for the missing-package cases.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { DESKTOP_PROGRAMS } from "../src/backends/linux/desktop/desktop_programs.ts";

const SCRIPT = fileURLToPath(new URL("./install.sh", import.meta.url));
const REPO = fileURLToPath(new URL("..", import.meta.url));
const onDebian = Deno.build.os === "linux" && hasCommand("dpkg-query");

function hasCommand(name: string): boolean {
  return (Deno.env.get("PATH") ?? "").split(":").some((dir) => {
    try {
      return Deno.statSync(`${dir}/${name}`).isFile;
    } catch {
      return false;
    }
  });
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs install.sh with exactly `path` as PATH; as `nobody`, from a copy in `copyTo` (a dir it can read). */
async function run(
  args: string[],
  options: { path?: string; user?: "nobody"; copyTo?: string } = {},
): Promise<Run> {
  const env = { PATH: options.path ?? Deno.env.get("PATH") ?? "/usr/bin:/bin" };
  let script = SCRIPT;
  if (options.copyTo) {
    script = `${options.copyTo}/install.sh`;
    await Deno.copyFile(SCRIPT, script);
    await Deno.chmod(script, 0o644);
  }
  const [command, argv] = options.user === "nobody"
    ? ["/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", script, ...args]]
    : ["/bin/sh", [script, ...args]];
  const out = await new Deno.Command(command, {
    args: argv,
    env,
    clearEnv: true,
    cwd: "/",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

async function listed(): Promise<string[]> {
  const out = await run(["--list"]);
  assert.equal(out.code, 0, out.stderr);
  return out.stdout.trim().split("\n");
}

/** The Debian package owning each shared library, from ldconfig's cache and one `dpkg -S` call. */
async function packagesOfLibraries(sonames: string[]): Promise<Map<string, string>> {
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  const cache = decode((await new Deno.Command("/sbin/ldconfig", { args: ["-p"] }).output()).stdout);
  const files = new Map<string, string>();
  for (const soname of sonames) {
    const path = cache.split("\n").map((line) => line.trim()).find((line) => line.startsWith(`${soname} `))
      ?.split(" => ")[1];
    assert.ok(path, `${soname} is in the ldconfig cache`);
    files.set(await Deno.realPath(path), soname);
  }
  const owners = decode((await new Deno.Command("dpkg", { args: ["-S", ...files.keys()] }).output()).stdout);
  const result = new Map<string, string>();
  for (const line of owners.trim().split("\n")) {
    const match = /^([^:\s]+)(?::[^:\s]+)?: (.+)$/.exec(line);
    if (match && files.has(match[2])) result.set(files.get(match[2])!, match[1]);
  }
  return result;
}

/** A directory of stand-ins: dpkg-query reporting `missing` as absent, apt-get and sudo that record calls. */
async function standIns(
  missing: string[],
): Promise<{ path: string; calls: () => Promise<string[]>; dir: string }> {
  const dir = await Deno.makeTempDir({ prefix: "cua-install-test-" });
  await Deno.chmod(dir, 0o755);
  const log = `${dir}/calls.log`;
  await Deno.writeTextFile(log, "");
  await Deno.chmod(log, 0o666);
  const write = async (name: string, body: string) => {
    await Deno.writeTextFile(`${dir}/${name}`, `#!/bin/sh\n${body}\n`);
    await Deno.chmod(`${dir}/${name}`, 0o755);
  };
  const absent = missing.map((pkg) => `"${pkg}"`).join(" | ");
  await write(
    "dpkg-query",
    `pkg="$3"\ncase "$pkg" in ${absent}) exit 1 ;; esac\nprintf 'install ok installed'`,
  );
  await write("apt-get", `echo "apt-get $*" >> ${log}`);
  await write("sudo", `echo "sudo $*" >> ${log}\n"$@"`);
  return {
    dir,
    path: `${dir}:/usr/bin:/bin`,
    calls: async () => (await Deno.readTextFile(log)).split("\n").filter(Boolean),
  };
}

Deno.test({
  name: "install.sh lists the package of every program the embedded desktop starts",
  async fn() {
    const packages = await listed();
    for (const program of Object.values(DESKTOP_PROGRAMS)) {
      assert.ok(packages.includes(program.debianPackage), `${program.name}: ${program.debianPackage} listed`);
    }
  },
});

Deno.test({
  name: "install.sh lists the package of every library the driver opens (owners from dpkg)",
  ignore: !onDebian,
  async fn() {
    const packages = await listed();
    const sonames = new Set<string>();
    for await (const entry of Deno.readDir(`${REPO}ffi/linux`)) {
      if (!entry.name.endsWith(".ts") || entry.name.endsWith("_test.ts")) continue;
      const text = await Deno.readTextFile(`${REPO}ffi/linux/${entry.name}`);
      // The first candidate of each openLibrary(...) call; tesseract is an optional extension.
      for (const match of text.matchAll(/openLibrary\(\s*"[^"]+",\s*\[\s*"(lib[^"]+)"/g)) {
        if (!/^lib(c|tesseract)\.so/.test(match[1])) sonames.add(match[1]);
      }
    }
    assert.ok(sonames.has("libX11.so.6") && sonames.size >= 6, `found the libraries: ${[...sonames]}`);
    const owners = await packagesOfLibraries([...sonames]);
    for (const soname of sonames) {
      const owner = owners.get(soname);
      assert.ok(owner, `dpkg knows who owns ${soname}`);
      assert.ok(packages.includes(owner), `${soname} comes from ${owner}, which install.sh lists`);
    }
  },
});

Deno.test({
  name: "install.sh on this machine (after setup) finds every package installed and exits 0",
  ignore: !onDebian,
  async fn() {
    const out = await run([]);
    assert.equal(out.code, 0, out.stdout + out.stderr);
    assert.match(out.stdout, /all \d+ packages cua-driver needs are installed/);
  },
});

Deno.test({
  name: "install.sh with packages missing prints one apt-get line and runs nothing",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const fake = await standIns(["xvfb", "libxi6"]);
    try {
      const root = await run([], { path: fake.path });
      assert.equal(root.code, 1);
      const lines = root.stdout.split("\n").filter((line) => line.includes("apt-get install"));
      assert.deepEqual(lines.map((l) => l.trim()), [
        "apt-get install -y --no-install-recommends xvfb libxi6",
      ]);

      const user = await run([], { path: fake.path, user: "nobody", copyTo: fake.dir });
      assert.equal(user.code, 1, user.stderr);
      assert.match(user.stdout, /^ {2}sudo apt-get install -y --no-install-recommends xvfb libxi6$/m);
      assert.deepEqual(await fake.calls(), [], "neither apt-get nor sudo ran");
    } finally {
      await Deno.remove(fake.dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "install.sh --install says what it runs, and goes through sudo only when not root",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const fake = await standIns(["openbox"]);
    try {
      const user = await run(["--install"], { path: fake.path, user: "nobody", copyTo: fake.dir });
      assert.equal(user.code, 0, user.stdout + user.stderr);
      assert.match(user.stdout, /running: sudo apt-get install -y --no-install-recommends openbox/);
      const root = await run(["--install"], { path: fake.path });
      assert.equal(root.code, 0, root.stdout + root.stderr);
      assert.deepEqual(await fake.calls(), [
        "sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends openbox",
        "apt-get install -y --no-install-recommends openbox",
        "apt-get install -y --no-install-recommends openbox",
      ]);
    } finally {
      await Deno.remove(fake.dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "install.sh without dpkg names the packages to look for and exits 1",
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "cua-install-nodpkg-" });
    try {
      for (const tool of ["id", "wc"]) await Deno.symlink(`/usr/bin/${tool}`, `${dir}/${tool}`);
      const out = await run([], { path: dir });
      assert.equal(out.code, 1);
      assert.match(out.stdout, /not a Debian-based system/);
      assert.match(out.stdout, /xvfb openbox dbus at-spi2-core/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
