/**
 * The one authorization check, run by the registry for every call under every
 * transport: the hard invariants, the risk map, and in bounded mode the
 * capability manifest as a deny-by-default ceiling (contract.md §6).
 *
 * @module
 */
import type { SystemBackend } from "../../ports/system.ts";
import { DriverError } from "../../ports/errors.ts";
import type { Authorizer } from "../../kernel/registry.ts";
import type { AnyTool } from "../../kernel/tool.ts";
import type { PermissionConfig } from "./config.ts";
import type { CapabilityManifest } from "./manifest.ts";
import { insideGrants as inside } from "./file_grants.ts";
import { executableMatches } from "./launch_policy.ts";

const RISK_CLASSES = new Set(["r0", "r1", "r2", "r3"]);
/** Arguments that name a file the driver writes. */
const WRITE_PATH_ARGS = ["screenshot_out_file", "output_dir", "destination_root"];
/** Arguments that name a file the driver reads. */
const READ_PATH_ARGS = ["image_path", "file_path", "dir"];

function denied(message: string, data: Record<string, unknown> = {}): DriverError {
  return new DriverError("permission_denied", `Permission denied: ${message}`, {
    ...data,
    hint: "the launcher fixes what this driver may do; ask the operator to widen the grant",
  });
}

/** Process ids an argument object targets. */
export function targetedPids(args: Record<string, unknown>): number[] {
  const pids: number[] = [];
  if (typeof args.pid === "number") pids.push(args.pid);
  const target = args.target as { pid?: unknown } | null | undefined;
  if (target && typeof target.pid === "number") pids.push(target.pid);
  if (Array.isArray(args.actions)) {
    for (const action of args.actions) {
      const nested = (action as { arguments?: unknown })?.arguments;
      if (nested && typeof nested === "object") pids.push(...targetedPids(nested as Record<string, unknown>));
    }
  }
  return pids;
}

/** The capability of tools that always act on the whole screen (a vendor's computer toolset members). */
export const WHOLE_SCREEN = "desktop.whole_screen";

function targetsDesktop(tool: AnyTool, args: Record<string, unknown>): boolean {
  const target = args.target as { kind?: unknown } | null | undefined;
  return args.scope === "desktop" || target?.kind === "desktop" || tool.name === "get_desktop_state" ||
    tool.capabilities.includes(WHOLE_SCREEN);
}

async function checkManifest(
  manifest: CapabilityManifest,
  tool: AnyTool,
  args: Record<string, unknown>,
  system: SystemBackend,
): Promise<void> {
  if (!manifest.allow.tools.includes(tool.name)) {
    throw denied(`tool "${tool.name}" is not in the capability manifest`, { tool: tool.name });
  }
  const outside = (what: string) =>
    new DriverError(
      "bounded_resource_outside_manifest",
      `Permission denied: ${what} is outside the capability manifest`,
      {
        tool: tool.name,
        hint: "the manifest's resources section lists what bounded mode may touch",
      },
    );
  const resolve = (name: string) => system.resolveProgram?.(name) ?? null;
  for (const pid of targetedPids(args)) {
    const exe = await system.processExecutable(pid);
    const app = exe === null
      ? undefined
      : manifest.resources.apps.find((a) => a.executable && executableMatches(a.executable, exe, resolve));
    if (!app || !app.windows) throw outside(`process ${pid}${exe ? ` (${exe})` : ""}`);
    if (system.processOnDesktopSync?.(pid) === false) {
      throw outside(`process ${pid} (${exe}), which does not run on the driver's desktop,`);
    }
    if (tool.name === "kill_app" && !app.terminate) throw outside(`terminating process ${pid}`);
  }
  // Which program runs is decided by the launcher once it has resolved the real file
  // (launch_policy.ts); here only whether the manifest lets anything launch at all.
  if (tool.name === "launch_app" && !manifest.resources.apps.some((a) => a.launch && a.executable)) {
    throw outside("launching apps");
  }
  if (targetsDesktop(tool, args) && !manifest.resources.desktop.display) throw outside("the whole desktop");
  for (const key of WRITE_PATH_ARGS) {
    const value = args[key];
    if (typeof value === "string" && !inside(value, manifest.resources.files.write)) {
      throw outside(`writing "${value}"`);
    }
  }
  for (const key of READ_PATH_ARGS) {
    const value = args[key];
    if (typeof value === "string" && !inside(value, manifest.resources.files.read)) {
      throw outside(`reading "${value}"`);
    }
  }
  // browser_set_input_files: every uploaded file is a read.
  if (Array.isArray(args.files)) {
    for (const file of args.files) {
      if (typeof file === "string" && !inside(file, manifest.resources.files.read)) {
        throw outside(`reading "${file}"`);
      }
    }
  }
}

/**
 * Builds the authorizer for a fixed configuration; `system` tells which executable a
 * targeted process runs (bounded mode).
 */
export function createAuthorizer(config: PermissionConfig, system: SystemBackend): Authorizer {
  let lastCall = Date.now();
  return async (tool, args) => {
    if (!RISK_CLASSES.has(tool.risk)) {
      throw denied(`tool "${tool.name}" has no reviewed risk class`, { tool: tool.name });
    }
    if (targetedPids(args).includes(Deno.pid)) {
      throw denied("a tool may not target the driver's own process", { tool: tool.name, pid: Deno.pid });
    }
    if (config.mode !== "bounded" || !config.manifest) return;
    const manifest = config.manifest;
    const now = Date.now();
    if (manifest.expiresAt !== null && now > manifest.expiresAt) {
      throw new DriverError(
        "authorization_expired",
        "Permission denied: the capability manifest has expired",
        {
          hint: "restart the driver with a renewed manifest",
        },
      );
    }
    if (manifest.idleTimeoutMs !== null && now - lastCall > manifest.idleTimeoutMs) {
      throw new DriverError(
        "authorization_expired",
        "Permission denied: the capability manifest's idle timeout passed",
        {
          hint: "restart the driver to start a new grant",
        },
      );
    }
    lastCall = now;
    await checkManifest(manifest, tool, args, system);
  };
}
