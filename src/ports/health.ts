/**
 * The health capability: OS permissions the driver needs and the back end's probes.
 *
 * @module
 */

/** One checked OS facility (check_permissions). */
export interface PermissionCheck {
  name: string;
  ok: boolean;
  /** What was found, in words. */
  detail: string;
  /** The exact step that supplies the missing piece; null when `ok`. */
  remedy: string | null;
  /** What was probed, for programs. */
  data?: Record<string, unknown>;
}

/** What raising the OS permission prompts did (`cua-driver permissions grant`). */
export interface PermissionPrompts {
  /** The grants whose system prompt was raised ("accessibility", "screen_recording"); empty when none was missing. */
  prompted: string[];
  /** What the person should know about grants that may not have prompted (shown after the prompts). */
  notes?: string[];
}

/** One platform check of health_report. */
export interface HealthCheck {
  name: string;
  status: "pass" | "fail" | "skip";
  message: string;
  /** What to do about a failure. */
  hint?: string;
  data?: Record<string, unknown>;
}
