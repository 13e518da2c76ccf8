/**
 * The benchmarks' desktop: the session's own when DISPLAY is set, else a private
 * embedded one (Xvfb 1920x1080x24, openbox, session D-Bus, AT-SPI bus) for the run.
 *
 * @module
 */
import { EmbeddedDesktop } from "../../src/backends/linux/desktop/embedded_desktop.ts";

/** Runs `body` with the environment of a desktop, started for it when there is none. */
export async function withDesktop<T>(body: (env: Record<string, string>) => Promise<T>): Promise<T> {
  const desktop = Deno.env.get("DISPLAY") ? null : await EmbeddedDesktop.start({ handleSignals: true });
  if (desktop) { for (const [k, v] of Object.entries(desktop.env)) Deno.env.set(k, v); }
  try {
    return await body({ ...Deno.env.toObject(), ...(desktop?.env ?? {}) });
  } finally {
    await desktop?.stop();
  }
}
