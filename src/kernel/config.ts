/**
 * The persisted configuration file (`~/.cua-driver/config.json`, contract.md §5.3).
 *
 * Only display and capture preferences live here. Authorization (permission mode,
 * grants, the capability manifest, policies) is fixed by the launcher and is never
 * read from or written to this file (contract.md §6).
 *
 * @module
 */
import { dirname, join } from "../lib/file_paths.ts";
import { DriverError } from "../ports/errors.ts";

/** Configuration keys and their defaults. */
export interface DriverConfig {
  /** Longest edge of window screenshots in pixels; 0 disables downscaling. */
  max_image_dimension: number;
  /** Deprecated; kept so older files and callers still load. */
  capture_mode: "ax" | "vision";
}

/** A settable key. */
export type ConfigKey = keyof DriverConfig;

/** Defaults, matching the reference on Linux. */
export const DEFAULT_CONFIG: Readonly<DriverConfig> = Object.freeze({
  max_image_dimension: 1568,
  capture_mode: "ax",
});

/** Every settable key, in the order get_config reports them. */
export const CONFIG_KEYS: readonly ConfigKey[] = ["max_image_dimension", "capture_mode"];

/** Keys that existed once and were replaced, with what replaced them. */
export const RETIRED_CONFIG_KEYS: Readonly<Record<string, string>> = Object.freeze({
  capture_scope: "action.target",
});

/** Names that look like configuration but are launch-time authorization (contract.md §6). */
const AUTHORIZATION_KEY =
  /permission|grant|manifest|polic|bypass|unrestricted|approv|authori|^mode$|allow|deny|revoke|trust/i;

/** Where the config file lives: `$CUA_DRIVER_CONFIG_DIR/config.json` or `~/.cua-driver/config.json`. */
export function configPath(): string {
  const dir = Deno.env.get("CUA_DRIVER_CONFIG_DIR") ??
    join(Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE") ?? "/tmp", ".cua-driver");
  return join(dir, "config.json");
}

/**
 * Checks one key and value as set_config receives them.
 *
 * @param field The argument that carried the value (`value`, or the key itself in the flat form).
 * @throws {DriverError} `config_key_retired` for a retired key; `invalid_arguments` (naming
 *   `field`) for an unknown key, an authorization key or a bad value.
 */
export function validateConfigEntry<K extends ConfigKey>(
  key: string,
  value: unknown,
  field: string = key,
): DriverConfig[K] {
  if (key in RETIRED_CONFIG_KEYS) {
    throw new DriverError("config_key_retired", `The config key "${key}" is retired`, {
      key,
      replacement: RETIRED_CONFIG_KEYS[key],
      hint: `pass a per-call "target" ({kind: "window", pid, window_id} or {kind: "desktop"}) instead`,
    });
  }
  if (!(CONFIG_KEYS as readonly string[]).includes(key)) {
    const valid = CONFIG_KEYS.map((k) => `"${k}"`).join(", ");
    const authorization = AUTHORIZATION_KEY.test(key);
    throw new DriverError(
      "invalid_arguments",
      authorization
        ? `"${key}" is not a config key: permissions are fixed when the driver starts`
        : `Unknown config key "${key}": valid keys are ${valid}`,
      {
        field: field === "value" ? "key" : field,
        valid_keys: [...CONFIG_KEYS],
        hint: authorization
          ? "the permission mode, grants and capability manifest come from the launcher's flags " +
            `and environment, never from set_config; settable keys are ${valid}`
          : `use one of ${valid}`,
      },
    );
  }
  if (key === "max_image_dimension") {
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
      throw new DriverError(
        "invalid_arguments",
        `max_image_dimension must be an integer ≥ 0 (0 = no limit), not ${JSON.stringify(value)}`,
        { field, key, hint: "for example 1568 (the default), 1024, or 0 to send screenshots at full size" },
      );
    }
    return value as DriverConfig[K];
  }
  if (value !== "ax" && value !== "vision") {
    throw new DriverError(
      "invalid_arguments",
      `capture_mode must be "ax" or "vision", not ${JSON.stringify(value)}`,
      { field, key, hint: 'capture_mode is deprecated and has no effect; "ax" is the default' },
    );
  }
  return value as DriverConfig[K];
}

/** Loads, holds and persists the configuration. */
export class ConfigStore {
  #values: DriverConfig;
  /** Keys in the file this driver does not use (another driver's), kept on write. */
  #foreign: Record<string, unknown>;
  /** Why the file could not be used, if it could not. */
  readonly loadWarning: string | null;

  constructor(readonly path: string = configPath()) {
    const { values, foreign, warning } = ConfigStore.#load(path);
    this.#values = values;
    this.#foreign = foreign;
    this.loadWarning = warning;
  }

  /** A copy of the current values. */
  get values(): DriverConfig {
    return { ...this.#values };
  }

  /** Replaces values and writes the file atomically (temporary file, then rename). */
  async update(patch: Partial<DriverConfig>): Promise<DriverConfig> {
    const next = { ...this.#values, ...patch };
    await this.#write(next);
    this.#values = next;
    return this.values;
  }

  /** Restores every default and writes the file. */
  async reset(): Promise<DriverConfig> {
    return await this.update({ ...DEFAULT_CONFIG });
  }

  async #write(values: DriverConfig): Promise<void> {
    await Deno.mkdir(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
    try {
      await Deno.writeTextFile(tmp, JSON.stringify({ ...this.#foreign, ...values }, null, 2) + "\n");
      await Deno.rename(tmp, this.path);
    } catch (error) {
      await Deno.remove(tmp).catch(() => {});
      throw new DriverError(
        "file_error",
        `Cannot write the config file "${this.path}": ${(error as Error).message}`,
        {
          path: this.path,
          hint: "check that the directory is writable, or set CUA_DRIVER_CONFIG_DIR to one that is",
        },
        { cause: error },
      );
    }
  }

  static #load(
    path: string,
  ): { values: DriverConfig; foreign: Record<string, unknown>; warning: string | null } {
    let text: string;
    try {
      text = Deno.readTextFileSync(path);
    } catch {
      return { values: { ...DEFAULT_CONFIG }, foreign: {}, warning: null };
    }
    try {
      const parsed = JSON.parse(text);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
        throw new SyntaxError("the top level is not an object");
      }
      const values = { ...DEFAULT_CONFIG };
      if (Number.isInteger(parsed.max_image_dimension) && parsed.max_image_dimension >= 0) {
        values.max_image_dimension = parsed.max_image_dimension;
      }
      if (parsed.capture_mode === "vision") values.capture_mode = "vision";
      const foreign: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(parsed)) {
        // Authorization never round-trips through this file, even if someone wrote it there.
        if (!(CONFIG_KEYS as readonly string[]).includes(key) && !AUTHORIZATION_KEY.test(key)) {
          foreign[key] = value;
        }
      }
      return { values, foreign, warning: null };
    } catch (error) {
      return {
        values: { ...DEFAULT_CONFIG },
        foreign: {},
        warning: `Config file "${path}" is not valid JSON, using defaults: ${(error as Error).message}`,
      };
    }
  }
}
