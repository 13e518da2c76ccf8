/**
 * `.ci/run`, the CI entry point, on a stand-in repository whose npm scripts only record
 * how they were called: it clones the repository into a temporary directory, starts with
 * an empty DENO_DIR and the CA only in SSL_CERT_FILE, runs the README's two commands and
 * every later step even after a failure, stops a hung step (and its children) at the
 * step's limit, fails on a changed clone, and leaves nothing behind.
 */
import assert from "node:assert/strict";

const root = new URL("../../", import.meta.url);
const ciRun = new URL(".ci/run", root).pathname;

/** One line a stand-in npm script wrote: which script ran, where, and with what environment. */
interface Call {
  event: string;
  cwd: string;
  denoDir: string;
  denoDirEntries: number;
  nodeExtraCa: string;
  denoCert: string;
  npmCache: string;
}

const RECORD = `#!/bin/sh
n=$(ls -A "$DENO_DIR" 2>/dev/null | wc -l)
printf '%s|%s|%s|%s|%s|%s|%s\\n' "$npm_lifecycle_event" "$PWD" "$DENO_DIR" "$n" \\
  "\${NODE_EXTRA_CA_CERTS-unset}" "\${DENO_CERT-unset}" "$npm_config_cache" >>"$CI_RECORD"
`;

async function git(cwd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=ci-test", "-c", "user.email=ci-test@localhost", ...args],
    cwd,
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
}

/** A git repository holding `.ci/run`, a package.json with these scripts and a stand-in deno. */
async function standIn(dir: string, scripts: Record<string, string>): Promise<string> {
  const repo = `${dir}/repo`;
  await Deno.mkdir(`${repo}/.ci`, { recursive: true });
  await Deno.mkdir(`${repo}/node_modules/.bin`, { recursive: true });
  await Deno.copyFile(ciRun, `${repo}/.ci/run`);
  await Deno.chmod(`${repo}/.ci/run`, 0o755);
  await Deno.writeTextFile(`${repo}/record.sh`, RECORD);
  await Deno.writeTextFile(`${repo}/node_modules/.bin/deno`, "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  await Deno.writeTextFile(
    `${repo}/package.json`,
    JSON.stringify({ name: "ci-stand-in", private: true, scripts }, null, 2),
  );
  await git(repo, "init", "--quiet");
  await git(repo, "add", "-A");
  await git(repo, "commit", "--quiet", "-m", "stand-in");
  return repo;
}

function ciCommand(dir: string, repo: string, limitTest: string): Deno.Command {
  const env = Deno.env.toObject();
  return new Deno.Command("bash", {
    args: [`${repo}/.ci/run`],
    env: {
      ...env,
      TMPDIR: `${dir}/tmp`,
      SSL_CERT_FILE: `${dir}/ca.pem`,
      NODE_EXTRA_CA_CERTS: `${dir}/other-node-ca.pem`,
      DENO_CERT: `${dir}/other-deno-ca.pem`,
      CI_RECORD: `${dir}/record`,
      CI_STAND_IN: repo,
      CUA_CI_LIMIT_TEST: limitTest,
      NO_COLOR: "1",
      npm_config_update_notifier: "false",
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });
}

async function calls(dir: string): Promise<Call[]> {
  const text = await Deno.readTextFile(`${dir}/record`).catch(() => "");
  return text.trim().split("\n").filter(Boolean).map((line) => {
    const [event, cwd, denoDir, entries, nodeExtraCa, denoCert, npmCache] = line.split("|");
    return { event, cwd, denoDir, denoDirEntries: Number(entries), nodeExtraCa, denoCert, npmCache };
  });
}

/** Runs `fn` with a new directory holding `tmp/` (the TMPDIR of .ci/run) and `ca.pem`, then removes it. */
async function inTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "cua-ci-run-test-" });
  try {
    await Deno.mkdir(`${dir}/tmp`);
    await Deno.writeTextFile(`${dir}/ca.pem`, "not a real CA; only its path is passed on\n");
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A step that records itself, then hangs in a child whose pid it writes to `$CI_RECORD.pid`. */
const HANG = `sh record.sh && sh -c 'sleep 300 & echo $! >"$CI_RECORD.pid"; sleep 300'`;

/** True while the process exists and is not a zombie. */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(Deno.readTextFileSync(`/proc/${pid}/stat`));
  } catch {
    return false;
  }
}

async function waitFor(what: string, condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The commands of the README's "Two commands" block, e.g. `npm start`. */
async function readmeCommands(): Promise<string[]> {
  const readme = await Deno.readTextFile(new URL("README.md", root));
  const section = readme.split("\n## Two commands\n")[1] ?? "";
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  return block.split("\n").map((line) => line.replace(/#.*/, "").trim()).filter(Boolean);
}

Deno.test(".ci/run runs the README's two commands in a fresh clone with empty caches and the CA only in SSL_CERT_FILE", async () => {
  await inTempDir(async (dir) => {
    const record = "sh record.sh";
    const repo = await standIn(dir, {
      // The checkout under test changes while CI runs (as a merge into it would): the run goes on as it began.
      start: `${record} && printf '#!/bin/sh\\necho replaced\\n' >"$CI_STAND_IN/.ci/run"`,
      test: record,
      "test:windows": record,
      "lint:workflows": record,
    });
    const out = await ciCommand(dir, repo, "5m").output();
    const stdout = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 0, stdout + new TextDecoder().decode(out.stderr));
    assert.match(stdout, /ci: clean/);

    const ran = await calls(dir);
    assert.deepEqual(ran.map((call) => call.event), ["start", "test", "test:windows", "lint:workflows"]);
    const commands = await readmeCommands();
    assert.deepEqual(commands, ["npm start", "npm test"]);
    for (const command of commands) {
      assert.ok(ran.some((call) => `npm ${call.event}` === command), `CI runs the README's \`${command}\``);
    }
    const first = ran[0];
    assert.ok(first.cwd.startsWith(`${dir}/tmp/cua-ci.`), `a clone under TMPDIR, not ${first.cwd}`);
    assert.notEqual(first.cwd, repo);
    assert.ok(first.denoDir.startsWith(`${dir}/tmp/cua-ci.`), first.denoDir);
    assert.equal(first.denoDirEntries, 0, "DENO_DIR starts empty");
    assert.equal(
      first.npmCache,
      `${first.denoDir.replace(/deno-dir$/, "")}npm-cache`,
      "npm's own cache, new",
    );
    for (const call of ran) {
      assert.equal(call.cwd, first.cwd, "every step runs in the same clone");
      assert.equal(call.nodeExtraCa, "unset");
      assert.equal(call.denoCert, "unset");
    }
    assert.deepEqual([...Deno.readDirSync(`${dir}/tmp`)], [], "the clone and DENO_DIR are removed");
  });
});

Deno.test(".ci/run runs every step after a failure, stops a hung step with its children, and fails on a changed clone", async () => {
  await inTempDir(async (dir) => {
    const repo = await standIn(dir, {
      start: "sh record.sh && exit 3",
      test: HANG,
      "test:windows": "sh record.sh && touch new-file",
      "lint:workflows": "sh record.sh",
    });
    // Long enough for npm to start the script on a loaded machine; the script then hangs.
    const out = await ciCommand(dir, repo, "15s").output();
    const stdout = new TextDecoder().decode(out.stdout);
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 1, stdout + stderr);

    assert.deepEqual((await calls(dir)).map((call) => call.event), [
      "start",
      "test",
      "test:windows",
      "lint:workflows",
    ]);
    const summary = stdout.slice(stdout.indexOf("ci: ==== summary"));
    assert.match(
      summary,
      /in all; load average [\d.]+ [\d.]+ [\d.]+ at the start, [\d.]+ [\d.]+ [\d.]+ at the end/,
    );
    assert.match(summary, /ci: FAILED .* npm start .*: exit 3\n/);
    assert.match(summary, /ci: FAILED .* npm test .*: exit 124 \(stopped at its limit of 15s\)\n/);
    assert.match(summary, /ci: ok .* deno check of the macOS tree/);
    assert.match(summary, /ci: ok .* npm run test:windows/);
    assert.match(summary, /ci: FAILED +git status of the clone: 1 changed or new files/);
    assert.match(stderr, /\?\? new-file/);

    const grandchild = Number(await Deno.readTextFile(`${dir}/record.pid`));
    await waitFor(`the hung step's child ${grandchild} to be stopped`, () => !alive(grandchild));
    assert.deepEqual([...Deno.readDirSync(`${dir}/tmp`)], [], "the clone and DENO_DIR are removed");
  });
});

Deno.test(".ci/run stops the running step and cleans up on SIGTERM", async () => {
  await inTempDir(async (dir) => {
    const repo = await standIn(dir, {
      start: "sh record.sh",
      test: HANG,
      "test:windows": "sh record.sh",
      "lint:workflows": "sh record.sh",
    });
    const child = ciCommand(dir, repo, "5m").spawn();
    await waitFor("the test step's child", async () => {
      const text = await Deno.readTextFile(`${dir}/record.pid`).catch(() => "");
      return text.trim() !== "";
    });
    const grandchild = Number(await Deno.readTextFile(`${dir}/record.pid`));
    child.kill("SIGTERM");
    const out = await child.output();
    assert.equal(out.code, 130, new TextDecoder().decode(out.stderr));
    assert.match(new TextDecoder().decode(out.stderr), /ci: interrupted/);
    assert.deepEqual((await calls(dir)).map((call) => call.event), ["start", "test"]);
    await waitFor(`the step's child ${grandchild} to be stopped`, () => !alive(grandchild));
    assert.deepEqual([...Deno.readDirSync(`${dir}/tmp`)], [], "the clone and DENO_DIR are removed");
  });
});
