/**
 * Permission configuration, fixed at startup from the launcher's flags and
 * environment. Nothing an agent sends can change it.
 *
 * @module
 */
import type { PermissionMode } from "../../kernel/runtime_state.ts";
import type { CapabilityManifest } from "./manifest.ts";

/** The runtime's permissions. */
export interface PermissionConfig {
  readonly mode: PermissionMode;
  /** Where the mode came from: "flag", "env" or "default". */
  readonly source: "flag" | "env" | "default";
  readonly manifest: CapabilityManifest | null;
  /** Launch grants (`--grant existing-profile`). */
  readonly grants: ReadonlySet<string>;
}

/** Launcher inputs. */
export interface PermissionInputs {
  mode?: string;
  dangerouslyBypass?: boolean;
  manifestPath?: string;
  approveManifest?: boolean;
  grants?: string[];
  env?: (name: string) => string | undefined;
}

const ALIASES: Record<string, PermissionMode> = {
  standard: "standard",
  bounded: "bounded",
  autonomous: "bounded",
  unrestricted: "unrestricted",
  yolo: "unrestricted",
};
const KNOWN_GRANTS = new Set(["existing-profile"]);

function truthy(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value);
}

/**
 * Resolves the permission configuration. A manifest file is read (and its YAML parser loaded)
 * only when one is named.
 *
 * @throws {Error} with a startup message when the combination is not allowed.
 */
export async function resolvePermissions(inputs: PermissionInputs): Promise<PermissionConfig> {
  const env = inputs.env ?? ((name: string) => Deno.env.get(name));
  const bypass = inputs.dangerouslyBypass === true || truthy(env("CUA_DRIVER_DANGEROUSLY_BYPASS_APPROVALS"));
  const requested = inputs.mode ?? env("CUA_DRIVER_PERMISSION_MODE");
  const source = inputs.mode !== undefined ? "flag" : requested !== undefined ? "env" : "default";
  let mode: PermissionMode;
  if (requested === undefined) mode = inputs.dangerouslyBypass ? "unrestricted" : "standard";
  else {
    const known = ALIASES[requested.trim().toLowerCase()];
    if (!known) {
      throw new Error(`Unknown permission mode "${requested}": use standard, bounded or unrestricted`);
    }
    mode = known;
  }
  if (mode === "unrestricted") {
    if (truthy(env("CUA_DRIVER_DISABLE_UNRESTRICTED"))) {
      throw new Error(
        "Permission mode unrestricted is disabled on this machine (CUA_DRIVER_DISABLE_UNRESTRICTED)",
      );
    }
    if (!bypass) {
      throw new Error(
        "Permission mode unrestricted needs the acknowledgement --dangerously-bypass-approvals " +
          "(or CUA_DRIVER_DANGEROUSLY_BYPASS_APPROVALS=1)",
      );
    }
  } else if (inputs.dangerouslyBypass) {
    throw new Error(
      `--dangerously-bypass-approvals only goes with permission mode unrestricted, not ${mode}`,
    );
  }
  const manifestPath = inputs.manifestPath ?? env("CUA_DRIVER_CAPABILITY_MANIFEST_FILE");
  const approved = inputs.approveManifest === true || truthy(env("CUA_DRIVER_CAPABILITY_MANIFEST_APPROVED"));
  if (manifestPath !== undefined && !approved) {
    throw new Error(
      "A capability manifest needs --approve-capability-manifest (or CUA_DRIVER_CAPABILITY_MANIFEST_APPROVED=1)",
    );
  }
  if (approved && manifestPath === undefined) {
    throw new Error("--approve-capability-manifest was given without --capability-manifest");
  }
  const manifest = manifestPath !== undefined
    ? (await import("./manifest.ts")).loadManifest(manifestPath)
    : null;
  if (mode === "bounded") {
    if (!manifest) {
      throw new Error("Permission mode bounded needs a capability manifest (--capability-manifest PATH)");
    }
    if (!manifest.expires_after || !manifest.idle_timeout) {
      throw new Error(`Bounded mode needs expires_after and idle_timeout in the manifest "${manifest.path}"`);
    }
  }
  const grants = new Set(inputs.grants ?? []);
  for (const grant of grants) {
    if (!KNOWN_GRANTS.has(grant)) {
      throw new Error(`Unknown grant "${grant}": the only grant is existing-profile`);
    }
  }
  if (grants.size && mode !== "standard") throw new Error("--grant applies to the standard mode only");
  return { mode, source, manifest, grants };
}
