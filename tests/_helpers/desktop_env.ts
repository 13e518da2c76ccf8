/**
 * The shared desktop that `scripts/test.ts` starts for the whole test run, seen from a
 * test: its environment, and whether there is one at all.
 *
 * @module
 */

/** Variables `scripts/test.ts` exports from its embedded desktop. */
export const DESKTOP_ENV_KEYS = [
  "DISPLAY",
  "DBUS_SESSION_BUS_ADDRESS",
  "XDG_RUNTIME_DIR",
  "GDK_BACKEND",
  "NO_AT_BRIDGE",
  "ACCESSIBILITY_ENABLED",
] as const;

/** True when `CUA_E2E_REQUIRE=1`: a missing desktop fails the e2e tests instead of skipping them. */
export function e2eRequired(): boolean {
  return Deno.env.get("CUA_E2E_REQUIRE") === "1";
}

/** True when DISPLAY names an X server that exists (for a local display, its socket is there). */
export function hasDesktop(): boolean {
  const display = Deno.env.get("DISPLAY") ?? "";
  const local = /^(?:unix)?:(\d+)(?:\.\d+)?$/.exec(display);
  if (local === null) return display !== "";
  try {
    return Deno.statSync(`/tmp/.X11-unix/X${local[1]}`).isSocket === true;
  } catch {
    return false;
  }
}

/**
 * For `Deno.test({ ignore })`: true (skip) when there is no desktop and none is required.
 * When one is required, the test runs and {@linkcode desktopEnv} fails it with a clear message.
 */
export function ignoreWithoutDesktop(): boolean {
  return !hasDesktop() && !e2eRequired();
}

/**
 * The shared desktop's variables, to pass as a child's `env`.
 *
 * @throws {Error} when there is no desktop (run the tests through `deno task test`).
 */
export function desktopEnv(): Record<string, string> {
  if (!hasDesktop()) {
    throw new Error(
      `No desktop: DISPLAY is ${JSON.stringify(Deno.env.get("DISPLAY") ?? null)}` +
        ": run the tests with `deno task test` (scripts/test.ts starts one), or set DISPLAY",
    );
  }
  const env: Record<string, string> = {};
  for (const key of DESKTOP_ENV_KEYS) {
    const value = Deno.env.get(key);
    if (value !== undefined) env[key] = value;
  }
  return env;
}
