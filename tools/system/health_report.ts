import { z } from "../../src/lib/schema/mod.ts";
import { sourceSha, VERSION } from "../../src/kernel/build_info.ts";
import { type DaemonProbe, probeDaemon } from "../../src/kernel/daemon_probe.ts";
import { asDriverError } from "../../src/ports/errors.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool, type ToolContext } from "../../src/kernel/tool.ts";
import type { HealthCheck } from "../../src/ports/health.ts";
import { platformName } from "./_platform.ts";

/** Every check, in report order. The back end answers the platform ones. */
export const HEALTH_CHECKS = [
  "binary_version",
  "platform_supported",
  "display",
  "window_manager",
  "accessibility",
  "capture",
  "input",
  "daemon",
  "session_active",
] as const;
type CheckName = typeof HEALTH_CHECKS[number];

const PLATFORM_CHECKS: readonly CheckName[] = [
  "display",
  "window_manager",
  "accessibility",
  "capture",
  "input",
];
/** A failure of one of these means the driver cannot work at all. */
const CRITICAL: ReadonlySet<string> = new Set(["binary_version", "platform_supported", "display"]);

const Check = z.object({
  name: z.string(),
  status: z.enum(["pass", "fail", "skip"]),
  message: z.string(),
  hint: z.string().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});

/** Matches cua-driver health_report's shape, with the Linux desktop's own checks. */
export default defineTool({
  name: "health_report",
  title: "Health report",
  description:
    "Can the driver work here: versions, platform, display, window manager, accessibility, capture (timed), input, daemon, session (macOS: OS version, window server, Accessibility grant, capture, event posting). overall: ok, degraded or failed; include/skip pick checks.",
  group: "system",
  input: z.strictObject({
    include: z.array(z.enum(HEALTH_CHECKS)).optional().describe("Run only these checks"),
    skip: z.array(z.enum(HEALTH_CHECKS)).optional().describe("Leave these checks out (include wins)"),
  }),
  output: z.object({
    schema_version: z.literal("1"),
    platform: z.enum(["linux", "darwin", "win32"]),
    driver_version: z.string(),
    overall: z.enum(["ok", "degraded", "failed"]),
    checks: z.array(Check),
  }),
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  risk: "r0",
  needsDesktop: false,
  capabilities: ["driver.health.read"],
  sessionRequiring: false,
  async run(ctx, args) {
    const include = args.include && args.include.length ? new Set<string>(args.include) : null;
    const skip = new Set<string>(args.skip ?? []);
    const runs = (name: string) => include ? include.has(name) : !skip.has(name);
    const platformNames = PLATFORM_CHECKS.filter(runs);
    const [platform, daemon] = await Promise.all([
      platformNames.length ? platformChecks(ctx, platformNames) : Promise.resolve([]),
      runs("daemon") ? probeDaemon(ctx.backend.system.sockets) : Promise.resolve(null),
    ]);
    const checks = HEALTH_CHECKS.map((name): HealthCheck => {
      if (!runs(name)) {
        return { name, status: "skip", message: include ? "not in include" : "skipped by request" };
      }
      switch (name) {
        case "binary_version":
          return binaryVersion();
        case "platform_supported":
          return platformSupported(ctx);
        case "daemon":
          return daemonCheck(ctx, daemon!);
        case "session_active":
          return sessionCheck(ctx);
        default:
          return platform.find((c) => c.name === name) ??
            { name, status: "fail", message: `The back end did not report "${name}"` };
      }
    });
    const failed = checks.filter((c) => c.status === "fail");
    const overall = failed.some((c) => CRITICAL.has(c.name)) ? "failed" : failed.length ? "degraded" : "ok";
    const report = {
      schema_version: "1" as const,
      platform: platformName(ctx),
      driver_version: VERSION,
      overall: overall as "ok" | "degraded" | "failed",
      checks,
    };
    return ok(report, table(report));
  },
});

async function platformChecks(ctx: ToolContext, names: readonly string[]): Promise<HealthCheck[]> {
  try {
    return await ctx.backend.health(names);
  } catch (error) {
    const driverError = asDriverError(error);
    return names.map((name) => ({
      name,
      status: "fail" as const,
      message: driverError.message,
      ...(driverError.data.hint ? { hint: String(driverError.data.hint) } : {}),
    }));
  }
}

function binaryVersion(): HealthCheck {
  const sha = sourceSha();
  return {
    name: "binary_version",
    status: "pass",
    message: `cua-driver ${VERSION} (source ${
      sha === "unknown" ? "unknown" : sha.slice(0, 12)
    }, deno ${Deno.version.deno})`,
    data: {
      version: VERSION,
      source_sha: sha,
      deno: Deno.version.deno,
      v8: Deno.version.v8,
      typescript: Deno.version.typescript,
    },
  };
}

function platformSupported(ctx: ToolContext): HealthCheck {
  const os = ctx.backend.os;
  if (os === "linux" || os === "fake") {
    return {
      name: "platform_supported",
      status: "pass",
      message: os === "fake" ? "Scripted test back end" : `Linux X11 (${ctx.backend.description})`,
      data: { os, backend: ctx.backend.description },
    };
  }
  return {
    name: "platform_supported",
    status: "fail",
    message: `${os} is not implemented yet: every desktop operation refuses with unsupported_platform`,
    hint: "run cua-driver on a Linux X11 desktop (or with --desktop embedded on Linux)",
    data: { os, backend: ctx.backend.description },
  };
}

function daemonCheck(ctx: ToolContext, probe: DaemonProbe): HealthCheck {
  const isDaemon = probe.answering && probe.pid === Deno.pid;
  const role = isDaemon
    ? "daemon"
    : ctx.transport === "daemon"
    ? "daemon"
    : ctx.transport === "cli"
    ? "cli_in_process"
    : ctx.transport;
  const data = { ...probe, this_pid: Deno.pid, this_process_role: role };
  if (probe.answering) {
    return {
      name: "daemon",
      status: "pass",
      message: isDaemon
        ? `This process (pid ${Deno.pid}) is the daemon on ${probe.socket}`
        : `A daemon (pid ${probe.pid}, ${probe.driver_version}) answers on ${probe.socket}; this process: ${role}`,
      data,
    };
  }
  return {
    name: "daemon",
    status: "pass",
    message: `No daemon answers on ${probe.socket}` +
      (probe.socket_exists ? ` (stale socket file: ${probe.error})` : "") +
      `; this process (pid ${Deno.pid}) runs tools itself: ${role}`,
    ...(probe.socket_exists ? { hint: "cua-driver serve replaces the stale socket when it starts" } : {}),
    data,
  };
}

function sessionCheck(ctx: ToolContext): HealthCheck {
  const live = ctx.state.sessions.all().filter((s) => s.state === "active").length;
  const detached = ctx.session.id.startsWith("detached:");
  if (!detached && ctx.session.state !== "active") {
    return {
      name: "session_active",
      status: "fail",
      message: `The session ${ctx.session.label ? `"${ctx.session.label}" ` : ""}is ${ctx.session.state}`,
      hint: "call start_session (or omit the session label) to continue",
      data: { label: ctx.session.label, state: ctx.session.state, live_sessions: live },
    };
  }
  return {
    name: "session_active",
    status: "pass",
    message: detached
      ? `No session on this connection yet (one starts with the first session-requiring call); ${live} live`
      : `Session ${ctx.session.label ? `"${ctx.session.label}"` : "(implicit)"} is active; ${live} live`,
    data: { label: ctx.session.label, state: detached ? "none" : ctx.session.state, live_sessions: live },
  };
}

/** The report as a short fixed-width table: `overall:` line, one row per check, hints below. */
function table(
  report: { platform: string; driver_version: string; overall: string; checks: HealthCheck[] },
): string {
  const width = Math.max(...report.checks.map((c) => c.name.length), 5) + 2;
  const rows = report.checks.map((c) => `${c.name.padEnd(width)}${c.status.padEnd(8)}${c.message}`);
  const hints = report.checks.filter((c) => c.status === "fail" && c.hint).map((c) =>
    `hint ${c.name}: ${c.hint}`
  );
  const mark = report.overall === "ok" ? "✅" : report.overall === "degraded" ? "⚠️" : "❌";
  return [
    `${mark} overall: ${report.overall} (${report.platform}, cua-driver ${report.driver_version})`,
    `${"CHECK".padEnd(width)}${"STATUS".padEnd(8)}MESSAGE`,
    ...rows,
    ...hints,
  ].join("\n");
}
