import assert from "node:assert/strict";
import {
  isAlive,
  isDeadState,
  listPids,
  parseCmdline,
  parseStat,
  readCmdline,
  readComm,
  startTime,
} from "./proc_fs.ts";

/** A stat line with `comm` in the name field and start time 4242 in field 22. */
function statLine(pid: number, comm: string, state = "S"): string {
  const after = [
    state,
    "1",
    String(pid),
    String(pid),
    "0",
    "-1",
    "4194560",
    "100",
    "0",
    "0",
    "0",
    "5",
    "3",
    "0",
    "0",
  ];
  // fields 18..21: priority, nice, num_threads, itrealvalue; field 22 starttime; then more
  return `${pid} (${comm}) ${after.join(" ")} 20 0 1 0 4242 1000 200 18446744073709551615\n`;
}

Deno.test("parseStat reads a plain line", () => {
  const stat = parseStat(statLine(42, "bash"));
  assert.deepEqual(stat, { pid: 42, comm: "bash", state: "S", ppid: 1, startTime: "4242" });
});

Deno.test("parseStat keeps spaces and parentheses inside comm", () => {
  for (const comm of ["Web Content", "a) b (c", "(sd-pam)", ") S 1 2 3", "x)", ""]) {
    const stat = parseStat(statLine(7, comm, "R"));
    assert.equal(stat?.comm, comm, comm);
    assert.equal(stat?.state, "R");
    assert.equal(stat?.startTime, "4242");
  }
});

Deno.test("parseStat rejects malformed text", () => {
  assert.equal(parseStat(""), null);
  assert.equal(parseStat("12 bash S 1"), null);
  assert.equal(parseStat("12 (bash) S 1 2 3"), null);
});

Deno.test("parseCmdline splits on NUL and drops the trailing terminator", () => {
  assert.deepEqual(parseCmdline("/usr/bin/gedit\0--new-window\0a b\0"), [
    "/usr/bin/gedit",
    "--new-window",
    "a b",
  ]);
  assert.deepEqual(parseCmdline(""), []);
  assert.deepEqual(parseCmdline("x\0\0y\0"), ["x", "", "y"]);
});

Deno.test("isDeadState is true only for zombie and dead states", () => {
  assert.deepEqual(["R", "S", "D", "T", "I", "Z", "X", "x"].map(isDeadState), [
    false,
    false,
    false,
    false,
    false,
    true,
    true,
    true,
  ]);
});

Deno.test("proc_fs reads the driver's own process", async () => {
  assert.ok((await listPids()).includes(Deno.pid));
  assert.equal(await isAlive(Deno.pid), true);
  assert.match((await startTime(Deno.pid)) ?? "", /^\d+$/);
  assert.ok(((await readCmdline(Deno.pid)) ?? []).length > 0);
  assert.ok(((await readComm(Deno.pid)) ?? "").length > 0);
});

Deno.test("proc_fs reports missing and invalid pids as gone", async () => {
  const missing = 2 ** 22 + 12345; // above pid_max's ceiling, never allocated
  assert.equal(await isAlive(missing), false);
  assert.equal(await startTime(missing), null);
  assert.equal(await readCmdline(missing), null);
  assert.equal(await isAlive(0), false);
  assert.equal(await isAlive(-5), false);
});

Deno.test("isAlive is false for a zombie in a fixture procfs", async () => {
  const root = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${root}/10`);
    await Deno.writeTextFile(`${root}/10/stat`, statLine(10, "defunct (z)", "Z"));
    await Deno.mkdir(`${root}/11`);
    await Deno.writeTextFile(`${root}/11/stat`, statLine(11, "alive", "S"));
    await Deno.mkdir(`${root}/self`);
    assert.deepEqual(await listPids(root), [10, 11]);
    assert.equal(await isAlive(10, root), false);
    assert.equal(await isAlive(11, root), true);
    assert.equal(await startTime(10, root), "4242");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
