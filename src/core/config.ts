/**
 * The persisted configuration file (`~/.cua-driver/config.json`, contract.md §5.3).
 *
 * @module
 */
import { dirname, join } from "node:path";

/** Configuration keys and their defaults. */
export interface DriverConfig {
  /** Longest edge of window screenshots in pixels; 0 disables downscaling. */
  max_image_dimension: number;
  /** Deprecated; kept so older files and callers still load. */
  capture_mode: "ax" | "vision";
}

/** Defaults, matching the reference on Linux. */
export const DEFAULT_CONFIG: Readonly<DriverConfig> = Object.freeze({
  max_image_dimension: 1568,
  capture_mode: "ax",
});

/** Where the config file lives: `$CUA_DRIVER_CONFIG_DIR/config.json` or `~/.cua-driver/config.json`. */
export function configPath(): string {
  const dir = Deno.env.get("CUA_DRIVER_CONFIG_DIR") ??
    join(Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE") ?? "/tmp", ".cua-driver");
  return join(dir, "config.json");
}

/** Loads, holds and persists the configuration. */
export class ConfigStore {
  #values: DriverConfig;
  /** Why the file could not be used, if it could not. */
  readonly loadWarning: string | null;

  constructor(readonly path: string = configPath()) {
    const { values, warning } = ConfigStore.#load(path);
    this.#values = values;
    this.loadWarning = warning;
  }

  /** A copy of the current values. */
  get values(): DriverConfig {
    return { ...this.#values };
  }

  /** Replaces values and writes the file atomically. */
  async update(patch: Partial<DriverConfig>): Promise<DriverConfig> {
    this.#values = { ...this.#values, ...patch };
    await Deno.mkdir(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.${Deno.pid}.tmp`;
    await Deno.writeTextFile(tmp, JSON.stringify(this.#values, null, 2) + "\n");
    await Deno.rename(tmp, this.path);
    return this.values;
  }

  static #load(path: string): { values: DriverConfig; warning: string | null } {
    let text: string;
    try {
      text = Deno.readTextFileSync(path);
    } catch {
      return { values: { ...DEFAULT_CONFIG }, warning: null };
    }
    try {
      const parsed = JSON.parse(text);
      const values = { ...DEFAULT_CONFIG };
      if (Number.isInteger(parsed?.max_image_dimension) && parsed.max_image_dimension >= 0) {
        values.max_image_dimension = parsed.max_image_dimension;
      }
      if (parsed?.capture_mode === "vision") values.capture_mode = "vision";
      return { values, warning: null };
    } catch (error) {
      return {
        values: { ...DEFAULT_CONFIG },
        warning: `Config file "${path}" is not valid JSON, using defaults: ${(error as Error).message}`,
      };
    }
  }
}
