/**
 * The capability manifest: the deny-by-default ceiling of bounded mode, read
 * once from the launcher's file (YAML or JSON) and never from an agent.
 *
 * @module
 */
import { parse as parseYaml } from "yaml";
import { z } from "../../lib/schema/mod.ts";

const Duration = z.string().regex(/^\d+(ms|s|m|h|d)$/, "a duration such as 30m, 2h or 1d");

const DirGrant = z.strictObject({ dir: z.string().startsWith("/"), recursive: z.boolean().default(true) });

/** Manifest schema (version 3, contract.md §6). */
export const ManifestSchema = z.strictObject({
  version: z.literal(3),
  expires_after: Duration.optional(),
  idle_timeout: Duration.optional(),
  allow: z.strictObject({ tools: z.array(z.string().min(1)).min(1) }),
  resources: z.strictObject({
    apps: z.array(z.strictObject({
      executable: z.string().min(1).optional(),
      bundle_id: z.string().min(1).optional(),
      launch: z.boolean().default(false),
      windows: z.boolean().default(true),
      terminate: z.boolean().default(false),
      /**
       * The exact argument lists launch_app may pass this app (each list whole, in order);
       * absent: any arguments, with the files they name held to the file grants.
       */
      arguments: z.array(z.array(z.string().max(32_768)).max(256)).optional(),
    })).default([]),
    files: z.strictObject({
      read: z.array(DirGrant).default([]),
      write: z.array(DirGrant).default([]),
    }).default({ read: [], write: [] }),
    desktop: z.strictObject({ display: z.boolean().default(false) }).default({ display: false }),
  }).default({ apps: [], files: { read: [], write: [] }, desktop: { display: false } }),
});

/** A parsed manifest. */
export type CapabilityManifest = z.infer<typeof ManifestSchema> & {
  /** Absolute expiry (ms since epoch), from expires_after at load time. */
  expiresAt: number | null;
  idleTimeoutMs: number | null;
  path: string;
};

/** Milliseconds of a duration string. */
export function durationMs(text: string): number {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text)!;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as "ms"];
  return Number(match[1]) * unit;
}

/**
 * Reads and validates a manifest file.
 *
 * @throws {Error} with a message naming the file and the problem (startup errors).
 */
export function loadManifest(path: string, now = Date.now()): CapabilityManifest {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (error) {
    throw new Error(`Cannot read capability manifest "${path}": ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = path.endsWith(".json") ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new Error(`Capability manifest "${path}" is not valid YAML/JSON: ${(error as Error).message}`);
  }
  const parsed = ManifestSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`Capability manifest "${path}" is invalid: ${z.prettifyError(parsed.error)}`);
  }
  const manifest = parsed.data;
  return {
    ...manifest,
    expiresAt: manifest.expires_after ? now + durationMs(manifest.expires_after) : null,
    idleTimeoutMs: manifest.idle_timeout ? durationMs(manifest.idle_timeout) : null,
    path,
  };
}
