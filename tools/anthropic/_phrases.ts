/**
 * The fixed error texts of the Anthropic computer toolset members: a model reads one of these
 * phrases for any failure, never a message or hint that could quote what is on the screen (a
 * window title, a field's text). The structured result keeps the driver's error code.
 *
 * @module
 */
import type { DriverError } from "../../src/ports/errors.ts";

/** The phrase for each error code the members meet; any other code reads {@linkcode FAILED}. */
export const PHRASES: Readonly<Record<string, string>> = {
  coordinate_out_of_bounds: "The coordinate is outside the screen.",
  button_already_held: "The left mouse button is already held down.",
  button_not_held: "The left mouse button is not held down.",
  input_busy: "Another action is still running.",
  display_unavailable: "The display is not available.",
  capture_failed: "The screen could not be captured.",
  permission_denied: "This action is not permitted in this session.",
  bounded_resource_outside_manifest: "This action is not permitted in this session.",
  authorization_expired: "This action is not permitted in this session.",
  background_unavailable: "The input could not be delivered.",
  foreground_unavailable: "The input could not be delivered.",
  delivery_failed: "The input could not be delivered.",
  window_target_not_found: "There is no window at that point.",
  timeout: "The action timed out.",
  aborted: "The action was cancelled.",
  session_ended: "The session has ended.",
};

/** The phrase for a failure nothing above names. */
export const FAILED = "The action failed.";
/** The phrase for arguments that do not fit, when the culprit is not one of the member's fields. */
export const INVALID_INPUT = "The input is not valid for this action.";

/** The phrase for invalid input naming one of the member's own fields (a fixed name, never data). */
export function invalidField(field: string): string {
  return `The input is not valid for this action: ${field}.`;
}

/**
 * Builds a member's `errorPhrase`: invalid input names the field when it is one of `fields`
 * (the member's schema keys); every other failure reads its code's fixed phrase.
 */
export function phraseFor(fields: readonly string[]): (error: DriverError) => string {
  return (error) => {
    if (error.code === "invalid_arguments" || error.code === "unknown_tool") {
      const field = String(error.data.field ?? "").split(".")[0];
      return fields.includes(field) ? invalidField(field) : INVALID_INPUT;
    }
    return PHRASES[error.code] ?? FAILED;
  };
}

/** Every phrase one member can return (for conformance checks). */
export function allPhrases(fields: readonly string[]): Set<string> {
  return new Set([...Object.values(PHRASES), FAILED, INVALID_INPUT, ...fields.map(invalidField)]);
}
