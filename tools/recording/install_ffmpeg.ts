import { z } from "../../src/lib/schema/mod.ts";
import { installFfmpeg } from "../../src/features/recording/ffmpeg.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";

/** Reports ffmpeg, previews its install, or installs it with the system package manager. */
export default defineTool({
  name: "install_ffmpeg",
  title: "Install ffmpeg",
  description:
    "ffmpeg for start_recording(record_video:true): without confirm:true shows the package manager command and runs nothing; with it runs exactly that (sudo -n when not root). Already installed: its path.",
  group: "system",
  input: z.strictObject({
    confirm: z.boolean().optional().describe("true installs; else only a preview"),
  }),
  output: z.object({
    installed: z.boolean(),
    ran: z.boolean(),
    path: z.string().nullable().optional().describe("ffmpeg's path when installed"),
    manager: z.string().optional().describe("The package manager (apt-get, dnf, pacman, zypper)"),
    command: z.string().optional().describe("The install command line"),
    output: z.string().optional().describe("The end of the command's output when it failed"),
  }),
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  risk: "r3",
  capabilities: ["system.package.install"],
  async run(ctx, args) {
    const outcome = await installFfmpeg(args.confirm === true, ctx.backend.system, ctx.signal);
    const text = !outcome.ran
      ? outcome.installed ? `✅ ffmpeg is installed: ${outcome.path}` : `ℹ️ ffmpeg is not installed; ` +
        `install_ffmpeg {confirm:true} would run: ${outcome.command}`
      : outcome.installed
      ? `✅ installed ffmpeg with "${outcome.command}": ${outcome.path}`
      : `❌ "${outcome.command}" did not install ffmpeg${outcome.output ? `:\n${outcome.output}` : ""}`;
    return ok({ ...outcome }, text);
  },
});
