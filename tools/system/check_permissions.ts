import { z } from "../../src/lib/schema/mod.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { sessionParam } from "../_shared/params.ts";
import { platformName } from "./_platform.ts";

const Check = z.object({
  name: z.string(),
  ok: z.boolean(),
  detail: z.string(),
  remedy: z.string().nullable(),
  data: z.record(z.string(), z.unknown()).optional(),
});

/**
 * Matches cua-driver check_permissions on Linux, as a list of checks: display access, the
 * AT-SPI bus, XTest, MIT-SHM, XComposite, XInput2 and the clipboard, each with the exact
 * remedy when it is missing. Never prompts: OS permission prompts are not a tool operation.
 */
export default defineTool({
  name: "check_permissions",
  title: "Check permissions",
  description:
    "Each facility the driver needs, with the exact remedy for a missing one. Linux: X display (DISPLAY, XAUTHORITY), AT-SPI bus, XTEST, MIT-SHM, XComposite, XInput 2.2, clipboard. macOS: Accessibility and Screen Recording grants (with the Settings pane), window server session, capture, pasteboard. Never prompts.",
  group: "system",
  input: z.strictObject({
    session: sessionParam,
    prompt: z.boolean().optional().describe(
      "Ask the OS to prompt for missing grants: refused from a tool call " +
        "(os_permission_prompt_requires_trusted_host); nothing to prompt for on Linux",
    ),
  }),
  output: z.object({
    platform: z.enum(["linux", "darwin", "win32"]),
    ok: z.boolean(),
    checks: z.array(Check),
    missing: z.array(z.string()),
    x11: z.boolean().nullable(),
    atspi: z.boolean().nullable(),
    dbus_session_bus_address: z.string().nullable(),
  }),
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  risk: "r2",
  needsDesktop: false,
  capabilities: ["driver.permissions.read"],
  sessionRequiring: false,
  async run(ctx, args) {
    if (args.prompt === true) {
      throw new DriverError(
        "os_permission_prompt_requires_trusted_host",
        "check_permissions cannot open an OS permission prompt from a tool call",
        {
          hint: "call check_permissions without prompt and apply each remedy it lists; permission prompts " +
            "are for the user at a trusted host, never an agent's tool operation",
        },
      );
    }
    const checks = await ctx.backend.permissions();
    const find = (name: string) => checks.find((c) => c.name === name);
    const missing = checks.filter((c) => !c.ok).map((c) => c.name);
    const address = find("atspi")?.data?.session_bus_address;
    const lines = checks.map((c) =>
      c.ok ? `✅ ${c.name}: ${c.detail}` : `❌ ${c.name}: ${c.detail}\n   remedy: ${c.remedy ?? "none known"}`
    );
    const summary = missing.length === 0
      ? `✅ All ${checks.length} checks passed`
      : `⚠️ ${missing.length} of ${checks.length} checks failed: ${missing.join(", ")}`;
    return ok(
      {
        platform: platformName(ctx),
        ok: missing.length === 0,
        checks,
        missing,
        x11: find("display")?.ok ?? null,
        atspi: find("atspi")?.ok ?? null,
        dbus_session_bus_address: typeof address === "string" ? address : null,
      },
      [summary, ...lines].join("\n"),
    );
  },
});
