import assert from "node:assert/strict";
import { linuxInstallPlan } from "./packages.ts";

const probe = (present: string[], uid: number) => ({
  onPath: (n: string) => present.includes(n),
  uid: () => uid,
});

Deno.test("linuxInstallPlan picks the first package manager that knows the feature, through sudo -n unless root", () => {
  assert.deepEqual(linuxInstallPlan("ffmpeg", probe(["apt-get", "dnf", "sudo"], 1000)), {
    manager: "apt-get",
    command: ["apt-get", "install", "-y", "ffmpeg"],
    privilege: "sudo",
    runs: ["sudo", "-n", "apt-get", "install", "-y", "ffmpeg"],
  });
  const root = linuxInstallPlan("ffmpeg", probe(["dnf"], 0));
  assert.deepEqual(root?.runs, ["dnf", "install", "-y", "ffmpeg"]);
  assert.equal(root?.privilege, "root");
  assert.equal(linuxInstallPlan("ffmpeg", probe(["pacman"], 1000))?.privilege, "unavailable");
  assert.equal(linuxInstallPlan("ffmpeg", probe([], 0)), null);
  // Text recognition is packaged for apt-get only.
  assert.equal(linuxInstallPlan("text_recognition", probe(["dnf"], 0)), null);
});
