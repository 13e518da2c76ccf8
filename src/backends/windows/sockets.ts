/**
 * The daemon's local endpoint on Windows: a named pipe only the user can open. The entry a
 * daemon client loads, without the rest of the Windows code.
 *
 * @module
 */
import type { LocalSockets } from "../../ports/system.ts";
import { NamedPipes } from "./pipes.ts";

/** Named pipes with the per-user default address. */
export function createWindowsSockets(): LocalSockets {
  return new NamedPipes();
}
