import assert from "node:assert/strict";
import { FakeSystem } from "../../backends/fake/mod.ts";
import type { PackageInstallPlan } from "../../ports/system.ts";
import { DriverError } from "../../ports/errors.ts";
import { installFfmpeg } from "./ffmpeg.ts";
import { ffmpegArgs } from "./video.ts";

const APT: PackageInstallPlan = {
  manager: "apt-get",
  command: ["apt-get", "install", "-y", "ffmpeg"],
  privilege: "sudo",
  runs: ["sudo", "-n", "apt-get", "install", "-y", "ffmpeg"],
};
const signal = new AbortController().signal;

/** A scripted system: ffmpeg present or not, a plan or none, what the install does. */
function system(options: { ffmpeg?: string; plan?: PackageInstallPlan; installs?: boolean; code?: number }) {
  const fake = new FakeSystem();
  if (options.ffmpeg) fake.executables.set("ffmpeg", options.ffmpeg);
  if (options.plan) fake.plans.set("ffmpeg", options.plan);
  fake.onInstall = (plan) => {
    if (options.installs) fake.executables.set("ffmpeg", "/usr/bin/ffmpeg");
    return {
      ran: [plan.runs],
      exitCode: options.code ?? 0,
      outputTail: "E: Unable to locate package ffmpeg",
    };
  };
  return fake;
}

Deno.test("installFfmpeg reports an installed ffmpeg and runs nothing", async () => {
  const fake = system({ ffmpeg: "/usr/bin/ffmpeg", plan: APT });
  assert.deepEqual(await installFfmpeg(true, fake, signal), {
    installed: true,
    ran: false,
    path: "/usr/bin/ffmpeg",
  });
  assert.deepEqual(fake.ran, []);
});

Deno.test("installFfmpeg previews the command exactly as it would run, and runs nothing", async () => {
  const fake = system({ plan: APT });
  assert.deepEqual(await installFfmpeg(false, fake, signal), {
    installed: false,
    ran: false,
    manager: "apt-get",
    command: "sudo -n apt-get install -y ffmpeg",
  });
  assert.deepEqual(fake.ran, []);
});

Deno.test("installFfmpeg with confirm runs the package manager only, and reports the result", async () => {
  const good = system({ plan: APT, installs: true });
  assert.deepEqual(await installFfmpeg(true, good, signal), {
    installed: true,
    ran: true,
    manager: "apt-get",
    command: "sudo -n apt-get install -y ffmpeg",
    path: "/usr/bin/ffmpeg",
  });
  assert.deepEqual(good.ran, [APT.runs]);
  const bad = system({
    plan: { ...APT, manager: "dnf", command: ["dnf"], runs: ["sudo", "-n", "dnf"] },
    code: 1,
  });
  const outcome = await installFfmpeg(true, bad, signal);
  assert.equal(outcome.installed, false);
  assert.equal(outcome.ran, true);
  assert.deepEqual(bad.ran, [["sudo", "-n", "dnf"]]);
  assert.match((outcome as { output?: string }).output ?? "", /Unable to locate/);
});

Deno.test("installFfmpeg refuses without a package manager that knows ffmpeg", async () => {
  for (const fake of [system({}), Object.assign(system({}), { packagesAvailable: false })]) {
    await assert.rejects(
      () => installFfmpeg(true, fake, signal),
      (e: DriverError) => e.code === "unsupported_platform",
    );
  }
});

Deno.test("ffmpegArgs puts the back end's input before H.264 yuv420p output", () => {
  const input = ["-f", "x11grab", "-framerate", "30", "-video_size", "1920x1080", "-i", ":99"];
  const args = ffmpegArgs({ source: { ffmpegInput: input, width: 1920, height: 1080 }, path: "/tmp/r.mp4" });
  const at = args.indexOf("-f");
  assert.deepEqual(args.slice(at, at + input.length), input);
  const after = (flag: string) => args[args.indexOf(flag) + 1];
  assert.equal(after("-c:v"), "libx264");
  assert.equal(after("-preset"), "ultrafast");
  assert.equal(after("-pix_fmt"), "yuv420p");
  assert.equal(args.at(-1), "/tmp/r.mp4");
  assert.ok(args.indexOf("-c:v") > args.indexOf("-i"), "output options follow the input");
});
