/**
 * The one error type an agent can see, and its mapping to the structured
 * envelope every transport returns.
 *
 * @module
 */

/** The reference's sixteen browser refusal codes (contract.md §2.3). */
const BROWSER_REFUSAL_CODES_LIST = [
  "browser_route_unavailable", // the process is not a Chromium-family browser, or none is installed
  "browser_requires_setup", // the browser has no DevTools endpoint: browser_prepare first
  "browser_binding_ambiguous", // several browser windows could be the one named
  "browser_binding_stale", // the target is gone, or the tab navigated away since its snapshot
  "browser_wrong_target_refused", // the window or ref belongs to another browser, target or tab
  "browser_tab_required", // a target has tabs and no tab_id was named
  "browser_tab_not_found", // the tab was closed or never belonged to the target
  "browser_ref_stale", // a ref from an older snapshot, or its node left the document
  "browser_input_trust_unavailable", // trusted input cannot reach the tab (hidden tab)
  "browser_endpoint_owner_mismatch", // the DevTools port is not served by that process
  "browser_consent_required", // attaching to an existing profile needs the launch grant
  "browser_consent_revoked",
  "browser_reconnect_exhausted", // the DevTools connection dropped and the endpoint is gone
  "browser_input_incomplete", // fewer keystrokes landed than were sent
  "browser_action_unavailable", // the element or tab cannot take this action now (dialog open, no box...)
  "browser_origin_outside_scope", // navigation to a scheme other than http, https or about
] as const;

/** The browser refusal codes, for tools that must tell them apart. */
export const BROWSER_REFUSAL_CODES: ReadonlySet<string> = new Set(BROWSER_REFUSAL_CODES_LIST);

/**
 * Every failure code a tool may return. Add a code here before throwing it anywhere.
 * Codes named by the reference contract keep its spelling (contract.md §2.3).
 */
export const ERROR_CODES = [
  // Arguments and dispatch
  "invalid_arguments", // schema-invalid or contradictory arguments; `field` names the culprit
  "unknown_tool", // no tool of that name in the registry
  "invalid_action_target", // `target` malformed or mixed with legacy pid/window_id/scope
  // Targets
  "window_target_not_found", // pid has no eligible window / window id does not exist
  "ambiguous_window_target", // pid owns several windows; `candidates` lists them
  "window_target_resolution_failed",
  "window_stale", // the window or its process went away between calls
  "process_not_found", // no such pid
  "app_not_found", // launch_app could not resolve the app
  "launch_failed",
  "launch_refused", // launch_app never runs this program or option (kill, shells, DevTools flags), in any mode
  // Element tokens
  "stale_element_token",
  "invalid_element_token",
  "snapshot_id_required",
  "element_index_required",
  "invalid_snapshot_id",
  "conflicting_element_target",
  "screenshot_context_missing",
  "coordinate_out_of_bounds", // a point or region outside the display it is in pixels of (never clamped)
  "stale_screenshot", // a screenshot_id that is unknown, of another session, superseded, or whose pixels are gone
  "menu_path_unavailable", // invoke_menu: a segment is missing, ambiguous, disabled or not invokable
  // Delivery
  "background_unavailable",
  "foreground_unavailable",
  "delivery_failed",
  "input_busy",
  "input_stopped", // a person stopped the agent's input (live view or CLI); only a person resumes it
  "button_already_held", // mouse_button_down while this session's cursor already holds a button
  "button_not_held", // mouse_drag without a held button
  // Platform
  "unsupported_platform", // tool or option not available on this OS or session type
  "display_unavailable", // no X server / lost connection
  "daemon_unavailable", // no daemon listens on the socket
  "accessibility_unavailable", // AT-SPI bus not reachable
  "capture_failed",
  "clipboard_unavailable",
  "library_unavailable", // dlopen failed
  "not_installed", // an optional extension (perception) is not installed; the hint gives the install command
  "native_call_failed", // OS API returned an error
  // Authorization and sessions
  "permission_denied",
  "bounded_resource_outside_manifest", // bounded mode: the resource is not in the capability manifest
  "authorization_expired", // bounded mode: the manifest's expiry or idle timeout passed
  "foreign_process_termination_denied",
  "session_ended",
  "session_not_started",
  "session_unavailable",
  "session_required", // escalate_session / get_session_state without a usable session
  "invalid_limit", // list_sessions limit out of 1..100
  "invalid_cursor", // list_sessions cursor not o:<n>
  "desktop_scope_disabled", // escalate_session on a session started with capture_scope "window"
  "desktop_already_active", // escalate_session when the desktop is already unlocked
  "session_cleanup_pending", // end_session while a call of the session is in flight
  "session_cleanup_partial", // a cleanup hook failed; end_session again retries it
  // Configuration and health
  "config_key_retired", // set_config of capture_scope: `data.replacement` names what replaced it
  "os_permission_prompt_requires_trusted_host", // check_permissions prompt:true from a tool call
  "protected_resource_scope_invalid", // a path failed canonicalization: relative, missing, symlink, not approved
  "unbounded_operation_requires_unrestricted", // legacy page mutations outside unrestricted mode
  // Browser tools (contract.md §2.3): returned in the browser refusal shape, never isError
  ...BROWSER_REFUSAL_CODES_LIST,
  // Recording and replay
  "recording_not_found", // replay_trajectory: the folder does not exist or is not a folder
  "recording_invalid", // the folder holds no turn folders, or its session.json is unreadable
  "recording_format_unsupported", // session.json's schema_version is newer than this build replays
  // Generic
  "file_error",
  "input_too_large", // an input is over a size limit; `limit` (and `size` when known) say by how much
  "timeout",
  "aborted",
  "typed_output_mismatch",
  "internal_error",
] as const;

/** Closed union of failure codes. */
export type DriverErrorCode = typeof ERROR_CODES[number];

/** Codes that mean "the driver decided not to act", as opposed to "it tried and failed". */
const REFUSAL_CODES: ReadonlySet<DriverErrorCode> = new Set<DriverErrorCode>([
  "invalid_arguments",
  "unknown_tool",
  "invalid_action_target",
  "window_target_not_found",
  "ambiguous_window_target",
  "launch_refused",
  "stale_element_token",
  "invalid_element_token",
  "snapshot_id_required",
  "element_index_required",
  "invalid_snapshot_id",
  "conflicting_element_target",
  "screenshot_context_missing",
  "coordinate_out_of_bounds",
  "stale_screenshot",
  "menu_path_unavailable",
  "background_unavailable",
  "foreground_unavailable",
  "input_busy",
  "input_stopped",
  "button_already_held",
  "button_not_held",
  "unsupported_platform",
  "not_installed",
  "permission_denied",
  "bounded_resource_outside_manifest",
  "authorization_expired",
  "foreign_process_termination_denied",
  "session_ended",
  "session_not_started",
  "session_unavailable",
  "session_required",
  "invalid_limit",
  "invalid_cursor",
  "desktop_scope_disabled",
  "desktop_already_active",
  "config_key_retired",
  "os_permission_prompt_requires_trusted_host",
  "protected_resource_scope_invalid",
  "unbounded_operation_requires_unrestricted",
  ...BROWSER_REFUSAL_CODES_LIST,
  "recording_not_found",
  "recording_invalid",
  "recording_format_unsupported",
  "input_too_large",
]);

/** Extra machine-readable data carried by a {@linkcode DriverError}. */
export interface DriverErrorData {
  /** What the caller should do next. */
  hint?: string;
  [key: string]: unknown;
}

/**
 * A failure an agent can act on: a closed `code`, a message in sentence case,
 * and data such as a `hint` or the `field` that was wrong.
 *
 * @example
 * ```ts
 * throw new DriverError("window_target_not_found", "Window 0x1a00003 does not exist", {
 *   hint: "call list_windows to refresh window ids",
 * });
 * ```
 */
export class DriverError extends Error {
  override name = "DriverError";
  constructor(
    readonly code: DriverErrorCode,
    message: string,
    readonly data: DriverErrorData = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  /** True when the driver refused before acting (nothing was sent). */
  get refused(): boolean {
    return REFUSAL_CODES.has(this.code);
  }
}

/** The structured content of a failed tool call, the same under every transport. */
export interface ErrorEnvelope {
  status: "refused" | "failed";
  code: DriverErrorCode;
  message: string;
  hint?: string;
  refusal?: { code: DriverErrorCode; message: string };
  [key: string]: unknown;
}

/**
 * Turns any thrown value into a {@linkcode DriverError}. Programmer errors
 * (anything that is not a DriverError) become `internal_error` and keep their cause.
 */
export function asDriverError(error: unknown): DriverError {
  if (error instanceof DriverError) return error;
  if (error instanceof DOMException && error.name === "AbortError") {
    return new DriverError("aborted", "The call was aborted", {}, { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  const coded = codedError(error);
  if (coded) return new DriverError(coded.code, message, coded.data, { cause: error });
  if (error instanceof Error && error.name === "CdpError") {
    // The browser did not answer or refused a protocol call: an environment failure, not a driver bug.
    return new DriverError("native_call_failed", `The browser failed a DevTools call: ${message}`, {
      hint: "the tab may be busy, closing or gone; call get_browser_state to check it",
    }, { cause: error });
  }
  return new DriverError("internal_error", `Internal error: ${message}`, {
    hint: "this is a driver bug; the next call is unaffected",
  }, { cause: error });
}

const KNOWN_CODES: ReadonlySet<string> = new Set(ERROR_CODES);

/**
 * The code and data of an error that names its own agent-facing failure: the raw
 * bindings' `LibraryLoadError` (`library_unavailable`) and `NativeError`
 * (`native_call_failed`), recognized by shape so the core never imports `ffi/`.
 */
function codedError(error: unknown): { code: DriverErrorCode; data: Record<string, unknown> } | null {
  if (!(error instanceof Error)) return null;
  const { code, data } = error as Error & { code?: unknown; data?: unknown };
  if (typeof code !== "string" || !KNOWN_CODES.has(code)) return null;
  if (typeof data !== "object" || data === null) return null;
  return { code: code as DriverErrorCode, data: data as Record<string, unknown> };
}

/** Builds the envelope for a failed call. */
export function toErrorEnvelope(error: DriverError): ErrorEnvelope {
  const { hint, ...rest } = error.data;
  const envelope: ErrorEnvelope = {
    ...rest,
    status: error.refused ? "refused" : "failed",
    code: error.code,
    message: error.message,
  };
  if (hint !== undefined) envelope.hint = hint;
  if (error.refused) envelope.refusal = { code: error.code, message: error.message };
  return envelope;
}

/** The text an agent reads for a failure: the message, then the hint. */
export function errorText(error: DriverError): string {
  const hint = error.data.hint;
  return hint ? `${error.message}: ${hint}` : error.message;
}
