import assert from "node:assert/strict";
import { type CommandRunner, perceptionInstallPlan, runPerceptionInstall } from "./install.ts";

const COMMAND = ["apt-get", "install", "-y", "tesseract-ocr", "tesseract-ocr-eng", "libtesseract5"];

Deno.test("perceptionInstallPlan uses apt-get as root, sudo otherwise, and nothing without apt-get", () => {
  const probe = (present: string[], uid: number) => ({
    onPath: (n: string) => present.includes(n),
    uid: () => uid,
  });
  assert.deepEqual(perceptionInstallPlan(probe(["apt-get"], 0)), {
    manager: "apt-get",
    command: COMMAND,
    privilege: "root",
    runs: COMMAND,
  });
  assert.equal(perceptionInstallPlan(probe(["apt-get", "sudo"], 1000))?.privilege, "sudo");
  assert.equal(perceptionInstallPlan(probe(["apt-get"], 1000))?.privilege, "unavailable");
  assert.equal(perceptionInstallPlan(probe(["dnf"], 0)), null);
});

Deno.test("runPerceptionInstall runs the command through sudo -n, and updates the lists once when needed", async () => {
  const ran: string[][] = [];
  let installs = 0;
  const run: CommandRunner = (argv) => {
    ran.push(argv);
    if (argv.includes("update")) return Promise.resolve({ code: 0, output: "Reading package lists..." });
    installs++;
    return Promise.resolve(
      installs === 1
        ? { code: 100, output: "E: Unable to locate package tesseract-ocr-eng" }
        : { code: 0, output: "Setting up libtesseract5 (5.3.0-2) ..." },
    );
  };
  const outcome = await runPerceptionInstall(
    { manager: "apt-get", command: COMMAND, privilege: "sudo", runs: ["sudo", "-n", ...COMMAND] },
    new AbortController().signal,
    run,
  );
  assert.deepEqual(ran, [["sudo", "-n", ...COMMAND], ["sudo", "-n", "apt-get", "update"], [
    "sudo",
    "-n",
    ...COMMAND,
  ]]);
  assert.deepEqual(outcome.ran, ran);
  assert.equal(outcome.exitCode, 0);
  assert.match(outcome.outputTail, /Setting up libtesseract5/);
});

Deno.test("runPerceptionInstall reports a failure without retrying unrelated errors", async () => {
  const ran: string[][] = [];
  const outcome = await runPerceptionInstall(
    { manager: "apt-get", command: COMMAND, privilege: "root", runs: COMMAND },
    new AbortController().signal,
    (argv) => {
      ran.push(argv);
      return Promise.resolve({ code: 100, output: "E: Could not get lock /var/lib/dpkg/lock-frontend" });
    },
  );
  assert.deepEqual(ran, [COMMAND]);
  assert.equal(outcome.exitCode, 100);
  assert.match(outcome.outputTail, /Could not get lock/);
});
