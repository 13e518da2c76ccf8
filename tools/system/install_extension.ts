import { z } from "../../src/lib/schema/mod.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";

/** Reports the perception extension, previews its install, or installs it with the system package manager. */
export default defineTool({
  name: "install_extension",
  title: "Install extension",
  description:
    "Preview or install an optional extension: perception (Tesseract OCR for parse_visual_regions) from system packages. Without confirm:true it shows the command, running nothing; with it, runs exactly that (sudo -n when not root) and says whether the engine loads.",
  group: "system",
  input: z.strictObject({
    name: z.enum(["perception"]).default("perception").describe("The extension (default perception)"),
    confirm: z.boolean().optional().describe("true installs; else only a preview"),
  }),
  output: z.object({
    name: z.string(),
    installed: z.boolean(),
    ran: z.boolean(),
    manager: z.string().optional().describe("The package manager (apt-get)"),
    command: z.string().optional().describe("The install command line"),
    privilege: z.enum(["root", "sudo", "unavailable"]).optional().describe(
      "How the command runs: as root, through sudo -n, or not at all",
    ),
    engine: z.object({ name: z.string(), version: z.string().nullable() }).optional(),
    missing: z.string().nullable().optional().describe("What still does not load, when not installed"),
    output: z.string().optional().describe("The end of the command's output when it ran"),
  }),
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  risk: "r3",
  capabilities: ["system.package.install"],
  async run(ctx, args) {
    const perception = ctx.backend.perception;
    if (!perception) {
      throw new DriverError("unsupported_platform", `No perception extension for ${ctx.backend.os} yet`, {
        hint: "use the accessibility tree (get_window_state) or pixels read from the screenshot",
      });
    }
    const before = await perception.status();
    const engine = { name: before.engine, version: before.version };
    if (before.installed) {
      return ok(
        { name: args.name, installed: true, ran: false, engine },
        `✅ perception is installed: ${before.engine} ${before.version}`,
      );
    }
    const plan = await perception.installPlan();
    if (!plan) {
      throw new DriverError("unsupported_platform", "No supported package manager (apt-get) on this system", {
        missing: before.missing,
        hint: "install Tesseract 4 or 5 with English data (libtesseract and eng.traineddata) by hand",
      });
    }
    const command = plan.command.join(" ");
    const preview = { name: args.name, manager: plan.manager, command, privilege: plan.privilege };
    if (args.confirm !== true) {
      return ok(
        { ...preview, installed: false, ran: false, missing: before.missing },
        `ℹ️ perception is not installed (${before.missing}); install_extension {"confirm": true} would run: ` +
          plan.runs.join(" "),
      );
    }
    if (plan.privilege === "unavailable") {
      throw new DriverError(
        "permission_denied",
        "Installing packages needs administrator rights, and non-interactive elevation is not available",
        {
          command,
          hint: `as root, run: ${command}`,
        },
      );
    }
    ctx.progress({ message: `running ${plan.runs.join(" ")}` });
    const outcome = await perception.install(plan, ctx.signal);
    const after = await perception.status();
    const structured = {
      ...preview,
      installed: after.installed,
      ran: true,
      engine: { name: after.engine, version: after.version },
      missing: after.missing,
      output: outcome.outputTail,
    };
    const ranText = outcome.ran.map((argv) => argv.join(" ")).join(" && ");
    return ok(
      structured,
      after.installed
        ? `✅ installed perception with "${ranText}": ${after.engine} ${after.version}`
        : `❌ "${ranText}" exited ${outcome.exitCode} and the engine still does not load (${after.missing})` +
          (outcome.outputTail ? `:\n${outcome.outputTail}` : ""),
    );
  },
});
