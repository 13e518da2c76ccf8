/**
 * What tools/list costs an agent: every session pays for it in context, so the published
 * schemas are compact. Input schemas keep every parameter an agent should use, with
 * its type, constraints and description, and leave out parameters marked `legacy` (still
 * accepted: `target` replaces them) and nested `additionalProperties`; output schemas keep
 * the top-level field names and types, which is what MCP clients validate
 * `structuredContent` against. `describe` and `manifest` print the full schemas.
 *
 * Profiles choose which tools are listed: `all` (every tool but the legacy ones, which
 * `legacy: true` adds back) or `core`, the tools most agents need ({@linkcode CORE_TOOLS}). Unlisted
 * tools can still be called. The vocabulary profiles (`anthropic`, `openai`) serve another set of
 * tools, a model vendor's own names and shapes, chosen where the tools are (`tools/profiles.ts`):
 * a registry built for one lists every tool it holds.
 *
 * @module
 */
import type { AnyTool, ToolHints } from "./tool.ts";

/** JSON Schema object. */
export type JsonSchema = Record<string, unknown>;

/** Which tools tools/list shows (and, for a vocabulary profile, which tools the registry holds). */
export type ToolProfile = "all" | "core" | VocabularyProfile;

/** Profiles that serve a model vendor's tool vocabulary instead of the driver's own tools. */
export type VocabularyProfile = "anthropic" | "openai";

/** Every profile name, for flags and their errors. */
export const TOOL_PROFILES: readonly ToolProfile[] = ["all", "core", "anthropic", "openai"];

/** True for the profiles that serve a vendor's vocabulary. */
export function isVocabularyProfile(profile: string | undefined): profile is VocabularyProfile {
  return profile === "anthropic" || profile === "openai";
}

/** Listing options: the profile and whether legacy tools are listed. */
export interface ListingOptions {
  profile?: ToolProfile;
  legacy?: boolean;
}

/** The `core` profile: observe a window, act on it, batch, launch, and say what is wrong. */
export const CORE_TOOLS: readonly string[] = [
  "list_apps",
  "list_windows",
  "get_window_state",
  "launch_app",
  "click",
  "type_text",
  "press_key",
  "hotkey",
  "scroll",
  "drag",
  "set_value",
  "invoke_menu",
  "run_actions",
  "health_report",
];

/** True when `tool` is listed under `options`. */
export function isListed(tool: AnyTool, options: ListingOptions = {}): boolean {
  if ((options.profile ?? "all") === "core") return CORE_TOOLS.includes(tool.name);
  if (isVocabularyProfile(options.profile)) return true;
  return !tool.legacy || options.legacy === true;
}

/**
 * The published input schema: legacy parameters and nested `additionalProperties` left out
 * (the root stays closed: unknown arguments are refused).
 */
export function compactInputSchema(schema: JsonSchema): JsonSchema {
  const out = strip(schema) as JsonSchema;
  out.additionalProperties = false;
  return out;
}

/** The bounds every integer schema gives (zod's safe-integer range): they say nothing. */
const SAFE_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (typeof value !== "object" || value === null) return value;
  const out: JsonSchema = {};
  const source = value as JsonSchema;
  for (const [key, item] of Object.entries(source)) {
    if (key === "additionalProperties" && item === false) continue;
    if ((key === "maximum" || key === "minimum") && SAFE_BOUNDS.has(item as number)) continue;
    // Generous length caps guard the server, not the caller.
    if (key === "maxLength" && (item as number) >= 200) continue;
    // A const or an enum says the type already.
    if (key === "type" && (source.const !== undefined || source.enum !== undefined)) continue;
    if (key === "anyOf" && Array.isArray(item)) {
      // null is accepted where it is, but never needs offering; nested unions flatten.
      const branches = item.flatMap((b) =>
        (b as JsonSchema).anyOf && Object.keys(b as object).length === 1
          ? (b as JsonSchema).anyOf as JsonSchema[]
          : [b as JsonSchema]
      ).filter((b) => b.type !== "null");
      if (branches.length === 1) Object.assign(out, strip(branches[0]));
      else out.anyOf = branches.map(strip);
      continue;
    }
    if (key === "properties" && typeof item === "object" && item !== null) {
      const kept = Object.entries(item).filter(([, p]) => !(p as JsonSchema).legacy);
      out.properties = Object.fromEntries(kept.map(([name, p]) => [name, strip(p)]));
      continue;
    }
    // Shared parameters are described once, in the server's instructions.
    if (key === "shared" || (key === "description" && source.shared !== undefined)) continue;
    out[key] = strip(item);
  }
  if (Array.isArray(out.required) && out.properties) {
    const names = new Set(Object.keys(out.properties as JsonSchema));
    out.required = (out.required as string[]).filter((name) => names.has(name));
    if ((out.required as string[]).length === 0) delete out.required;
  }
  return out;
}

/**
 * The published output schema: the success shape's top-level fields with their JSON types,
 * or the failure envelope (every failure has `status`).
 */
export function compactOutputSchema(success: JsonSchema): JsonSchema {
  const properties: JsonSchema = {};
  for (const [name, field] of Object.entries((success.properties ?? {}) as JsonSchema)) {
    // A field only a parameter asks for (successor_state) needs no listing: the object is open.
    if ((field as JsonSchema).listed !== false) properties[name] = {};
  }
  // Nothing required and no closed object: the failure envelope (isError) passes it too.
  return { type: "object", properties };
}

/**
 * The meaning of the parameters tools/list leaves undescribed (see `shared` in the tool
 * schemas), for the MCP initialize instructions.
 */
export const SHARED_PARAMETERS = 'Parameters many tools share: target = {kind:"window", pid, window_id} ' +
  'or {kind:"desktop"} (pid and window_id from list_windows). element_token = s<8 hex>:<index> from the ' +
  'latest get_window_state. x, y with coordinate_space "screenshot" (default) = pixels of the window\'s ' +
  "latest screenshot (an element's center), \"screen\" = screen points (an element's frame); desktop " +
  "targets take screen points; screenshot_id pins x, y to one capture, from_zoom to the latest zoom. " +
  'delivery_mode "background" (default) leaves the window where it is, "foreground" fronts it, acts and ' +
  "restores. modifier = keys held: ctrl, shift, alt, super. session = a label to repeat on related calls " +
  "(default: this connection's session). screenshot_out_file writes the PNG there instead of inline. " +
  'return_state "diff" on an action adds successor_state: the target window\'s elements added, removed and ' +
  "changed since the snapshot the action was aimed from (fresh element_tokens) and windows it opened; " +
  '"full" all its elements; "none" (default) nothing.';

/**
 * MCP hints without those equal to the protocol's defaults (readOnly false, destructive
 * true, idempotent false, openWorld true) or meaningless for a read-only tool.
 */
export function compactHints(hints: ToolHints): {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
} {
  const out: Record<string, boolean> = {};
  if (hints.readOnly) out.readOnlyHint = true;
  // destructiveHint and idempotentHint mean something only for tools that change things (MCP).
  if (!hints.readOnly && !hints.destructive) out.destructiveHint = false;
  if (!hints.readOnly && hints.idempotent) out.idempotentHint = true;
  if (!hints.openWorld) out.openWorldHint = false;
  return out;
}
