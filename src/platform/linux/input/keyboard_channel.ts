/**
 * Adapts the X11 keyboard to the {@linkcode RawKeyboard} interface for one channel.
 *
 * @module
 */
import { DriverError } from "../../../core/errors.ts";
import type { RawKeyboard } from "../../types.ts";
import type { XConnection } from "../x11/connection.ts";
import type { AgentMaster } from "./agent_master.ts";

/** Creates the keyboard of a channel: the core keyboard when `agent` is null. */
export function createKeyboard(_conn: XConnection, _agent: AgentMaster | null): RawKeyboard {
  const missing = () =>
    Promise.reject(new DriverError("unsupported_platform", "The X11 keyboard is not wired in yet"));
  return {
    press: missing,
    down: missing,
    up: missing,
    typeText: missing,
    releaseAll: () => Promise.resolve(),
  };
}
