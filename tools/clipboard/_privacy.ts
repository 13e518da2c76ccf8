/**
 * Flags every clipboard result carries (contract.md §1.7).
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";

/** Schema fields shared by clipboard results. */
export const privacyFields = {
  supported: z.literal(true),
  types: z.array(z.string()),
  privacy_sensitive: z.literal(true),
  content_redacted_from_telemetry: z.literal(true),
};

/** Values of those fields. */
export function privacy(types: string[]) {
  return {
    supported: true as const,
    types,
    privacy_sensitive: true as const,
    content_redacted_from_telemetry: true as const,
  };
}
