import { z } from "../../src/lib/schema/mod.ts";
import {
  CONFIG_KEYS,
  type ConfigKey,
  type DriverConfig,
  RETIRED_CONFIG_KEYS,
  validateConfigEntry,
} from "../../src/kernel/config.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { sessionParam } from "../_shared/params.ts";
import { ConfigSnapshot } from "./get_config.ts";

const VALID_KEYS = CONFIG_KEYS.map((k) => `"${k}"`).join(", ");
const MAX_DIMENSION_RULE = "max_image_dimension must be an integer ≥ 0 (0 = no limit)";

/**
 * Matches cua-driver set_config: the `{key, value}` shape or the legacy flat fields.
 * Only the keys in its schema can be set; authorization is not configuration (contract.md §6).
 */
export default defineTool({
  name: "set_config",
  title: "Set config",
  description:
    "Change persisted settings (written at once, kept across restarts): {key, value} or the fields; max_image_dimension = longest screenshot edge in pixels (0 = no limit, default 1568). reset:true restores defaults. Permission mode, grants and manifest are the launcher's.",
  group: "system",
  input: z.strictObject({
    session: sessionParam,
    key: z.string().min(1).optional().describe(`Setting to change: ${VALID_KEYS}`),
    value: z.union([z.number(), z.string(), z.boolean(), z.null()]).optional().describe("New value for key"),
    max_image_dimension: z.number({ error: MAX_DIMENSION_RULE })
      .int({ error: MAX_DIMENSION_RULE })
      .min(0, { error: MAX_DIMENSION_RULE })
      .optional()
      .describe("Longest screenshot edge in pixels; 0 = no limit"),
    capture_mode: z.enum(["ax", "vision"]).optional().describe("Deprecated and ignored by capture"),
    capture_scope: z.unknown().optional().describe(
      "Retired (config_key_retired): use target",
    ),
    reset: z.boolean().optional().describe("Restore every default (before applying any other field)"),
  }, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `Unknown config key ${
          (issue.keys ?? []).map((k) => `"${k}"`).join(", ")
        }: valid keys are ${VALID_KEYS}`
        : undefined,
  }),
  output: ConfigSnapshot.extend({
    config_path: z.string(),
    changed: z.array(z.string()),
    reset: z.boolean(),
  }),
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  risk: "r2",
  needsDesktop: false,
  capabilities: ["driver.config.write"],
  async run(ctx, args) {
    for (const key of Object.keys(RETIRED_CONFIG_KEYS)) {
      if (key in args && (args as Record<string, unknown>)[key] !== undefined) {
        validateConfigEntry(key, undefined);
      }
    }
    const patch: Partial<Record<ConfigKey, unknown>> = {};
    for (const key of CONFIG_KEYS) {
      const value = (args as Record<string, unknown>)[key];
      if (value !== undefined) patch[key] = validateConfigEntry(key, value);
    }
    if (args.key !== undefined) {
      if (args.value === undefined && (CONFIG_KEYS as readonly string[]).includes(args.key)) {
        throw new DriverError("invalid_arguments", `set_config with key "${args.key}" needs a value`, {
          field: "value",
          hint: `for example {"key": "${args.key}", "value": ...}`,
        });
      }
      patch[args.key as ConfigKey] = validateConfigEntry(args.key, args.value, "value");
    } else if (args.value !== undefined) {
      throw new DriverError("invalid_arguments", "value was given without a key", {
        field: "key",
        hint: `name the setting: one of ${VALID_KEYS}`,
      });
    }
    const changed = Object.keys(patch);
    if (!args.reset && changed.length === 0) {
      throw new DriverError("invalid_arguments", "Nothing to set", {
        field: "key",
        hint:
          `pass {key, value} with key one of ${VALID_KEYS}, a field such as max_image_dimension, or reset: true`,
      });
    }
    const store = ctx.state.config;
    if (args.reset) await store.reset();
    const values = changed.length ? await store.update(patch as Partial<DriverConfig>) : store.values;
    const limit = values.max_image_dimension === 0 ? "no limit" : `${values.max_image_dimension} px`;
    return ok(
      {
        max_image_dimension: values.max_image_dimension,
        capture_mode: values.capture_mode,
        config_path: store.path,
        changed,
        reset: args.reset === true,
      },
      `✅ ${args.reset ? "Restored the defaults" : ""}${args.reset && changed.length ? "; " : ""}` +
        `${changed.length ? `set ${changed.join(", ")}` : ""}: max_image_dimension ${limit}, ` +
        `capture_mode ${values.capture_mode} (saved to ${store.path})`,
    );
  },
});
