import assert from "node:assert/strict";
import { DriverError } from "../errors.ts";
import { installFfmpeg, type InstallHost } from "./ffmpeg.ts";
import { ffmpegArgs } from "./video.ts";

/** A scripted system: which programs exist, whether we are root, what the install does. */
function host(
  options: { ffmpeg?: string; programs?: string[]; root?: boolean; installs?: boolean; code?: number },
) {
  let ffmpeg = options.ffmpeg ?? null;
  const ran: string[][] = [];
  const system: InstallHost = {
    findFfmpeg: () => Promise.resolve(ffmpeg),
    which: (name) => Promise.resolve(options.programs?.includes(name) ? `/usr/bin/${name}` : null),
    isRoot: () => options.root ?? false,
    run(argv) {
      ran.push(argv);
      if (options.installs) ffmpeg = "/usr/bin/ffmpeg";
      return Promise.resolve({ code: options.code ?? 0, output: "E: Unable to locate package ffmpeg" });
    },
  };
  return { system, ran };
}

Deno.test("installFfmpeg reports an installed ffmpeg and runs nothing", async () => {
  const { system, ran } = host({ ffmpeg: "/usr/bin/ffmpeg", programs: ["apt-get"] });
  assert.deepEqual(await installFfmpeg(true, system), {
    installed: true,
    ran: false,
    path: "/usr/bin/ffmpeg",
  });
  assert.deepEqual(ran, []);
});

Deno.test("installFfmpeg previews without confirm, through sudo -n when not root", async () => {
  const { system, ran } = host({ programs: ["apt-get", "dnf"] });
  assert.deepEqual(await installFfmpeg(false, system), {
    installed: false,
    ran: false,
    manager: "apt-get",
    command: "sudo -n apt-get install -y ffmpeg",
  });
  assert.deepEqual(ran, []);
  const root = host({ programs: ["apt-get"], root: true });
  const preview = await installFfmpeg(false, root.system) as { command?: string };
  assert.equal(preview.command, "apt-get install -y ffmpeg");
});

Deno.test("installFfmpeg with confirm runs the package manager only, and reports the result", async () => {
  const good = host({ programs: ["apt-get"], root: true, installs: true });
  assert.deepEqual(await installFfmpeg(true, good.system), {
    installed: true,
    ran: true,
    manager: "apt-get",
    command: "apt-get install -y ffmpeg",
    path: "/usr/bin/ffmpeg",
  });
  assert.deepEqual(good.ran, [["apt-get", "install", "-y", "ffmpeg"]]);
  const bad = host({ programs: ["dnf"], code: 1 });
  const outcome = await installFfmpeg(true, bad.system);
  assert.equal(outcome.installed, false);
  assert.equal(outcome.ran, true);
  assert.deepEqual(bad.ran, [["sudo", "-n", "dnf", "install", "-y", "ffmpeg"]]);
  assert.match((outcome as { output?: string }).output ?? "", /Unable to locate/);
});

Deno.test("installFfmpeg refuses without a known package manager", async () => {
  const { system } = host({ programs: [] });
  await assert.rejects(
    () => installFfmpeg(true, system),
    (e: DriverError) => e.code === "unsupported_platform",
  );
});

Deno.test("ffmpegArgs grabs the display at 30 fps into H.264 yuv420p with even sizes", () => {
  const args = ffmpegArgs({
    ffmpeg: "ffmpeg",
    display: ":99",
    width: 1921,
    height: 1080,
    path: "/tmp/r.mp4",
  });
  const after = (flag: string) => args[args.indexOf(flag) + 1];
  assert.equal(after("-f"), "x11grab");
  assert.equal(after("-framerate"), "30");
  assert.equal(after("-draw_mouse"), "1");
  assert.equal(after("-video_size"), "1920x1080");
  assert.equal(after("-i"), ":99");
  assert.equal(after("-c:v"), "libx264");
  assert.equal(after("-preset"), "ultrafast");
  assert.equal(after("-pix_fmt"), "yuv420p");
  assert.equal(args.at(-1), "/tmp/r.mp4");
});
