/**
 * What toolkits need to expose accessibility on this desktop, and why an app does not:
 *
 * - Qt 5/6 load their AT-SPI bridge only while a screen reader is announced (the
 *   `org.a11y.Status` flags) or with `QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1`; they find the
 *   accessibility bus through the root window's `AT_SPI_BUS` property first.
 * - GTK 4's default GL renderer on a software X server (Xvfb has no DRI3) leaves the app
 *   without a working surface, and it never registers on AT-SPI; `GSK_RENDERER=cairo`
 *   renders in software.
 * - `NO_AT_BRIDGE=1` or `GTK_A11Y=none` switch GTK's bridge off.
 * - LibreOffice exposes accessibility through its gtk3 plugin only; outside a GNOME or
 *   KDE session it picks its plain X11 plugin unless `SAL_USE_VCLPLUGIN=gtk3`.
 *
 * @module
 */
import { X, x11 } from "../../../../ffi/linux/x11.ts";
import { hasExtension } from "../x11/extension.ts";
import { getText } from "../x11/properties.ts";
import type { XConnection } from "../x11/connection.ts";

/** Variables every launched app gets so GTK, Qt and Chromium load their AT-SPI bridges. */
export const ACCESSIBILITY_ENV: Readonly<Record<string, string>> = {
  ACCESSIBILITY_ENABLED: "1",
  NO_AT_BRIDGE: "0",
  QT_LINUX_ACCESSIBILITY_ALWAYS_ON: "1",
  QT_ACCESSIBILITY: "1",
};

/**
 * Toolkit choices that keep accessibility working, used only where the user made none:
 * LibreOffice picks its X11 plugin (no accessibility) outside a GNOME or KDE session.
 */
export const TOOLKIT_DEFAULTS: Readonly<Record<string, string>> = {
  SAL_USE_VCLPLUGIN: "gtk3",
};

/**
 * The variables launched apps need on the display behind `connection`: the
 * {@linkcode ACCESSIBILITY_ENV}, the {@linkcode TOOLKIT_DEFAULTS} the user did not
 * choose otherwise, and `GSK_RENDERER=cairo` on a server without DRI3
 * (Xvfb, Xvnc, Xephyr) unless the driver's environment chooses a renderer itself.
 */
export function accessibilityEnv(connection: XConnection | null): Record<string, string> {
  // The user's own toolkit choices (a KDE session's SAL_USE_VCLPLUGIN=kf5) are kept.
  const env: Record<string, string> = {
    ...Object.fromEntries(Object.entries(TOOLKIT_DEFAULTS).filter(([key]) => !Deno.env.get(key))),
    ...ACCESSIBILITY_ENV,
  };
  if (!Deno.env.get("GSK_RENDERER") && (connection === null || !hasExtension(connection, "DRI3"))) {
    env.GSK_RENDERER = "cairo";
  }
  return env;
}

/**
 * Publishes the accessibility bus address on the root window (`AT_SPI_BUS`), as
 * at-spi-bus-launcher does when it knows the display, so that Qt apps find the bus.
 * Leaves an existing property alone.
 *
 * @returns True when the property is there now.
 */
export function publishAtspiBus(connection: XConnection, address: string): boolean {
  if (getText(connection, connection.root, "AT_SPI_BUS")) return true;
  const bytes = new TextEncoder().encode(address);
  const { errors } = connection.trap(() =>
    x11.symbols.XChangeProperty(
      connection.unsafeDisplay(),
      connection.root,
      connection.atom("AT_SPI_BUS"),
      connection.atom("STRING"),
      8,
      X.PropModeReplace,
      bytes,
      bytes.length,
    )
  );
  x11.symbols.XSync(connection.unsafeDisplay(), X.False);
  return errors.length === 0;
}

/**
 * Why a process has no AT-SPI application, from its environment and executable: a
 * sentence naming the cause and the remedy, or null when nothing explains it.
 */
export async function whyNoAccessibility(pid: number): Promise<string | null> {
  let environ = "", maps = "";
  try {
    environ = await Deno.readTextFile(`/proc/${pid}/environ`);
    maps = await Deno.readTextFile(`/proc/${pid}/maps`);
  } catch {
    return null;
  }
  const env = new Map(
    environ.split("\0").map((entry) => {
      const eq = entry.indexOf("=");
      return [entry.slice(0, eq), entry.slice(eq + 1)] as const;
    }),
  );
  const relaunch = "close it and start it again with launch_app, which sets what its toolkit needs";
  if (env.get("NO_AT_BRIDGE") === "1" || env.get("GTK_A11Y") === "none") {
    return `it was started with ${env.get("NO_AT_BRIDGE") === "1" ? "NO_AT_BRIDGE=1" : "GTK_A11Y=none"}, ` +
      `which switches its accessibility bridge off: ${relaunch}`;
  }
  if (/libQt[56]Core/.test(maps) && env.get("QT_LINUX_ACCESSIBILITY_ALWAYS_ON") !== "1") {
    return "it is a Qt app started without QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1, and Qt loads its AT-SPI bridge " +
      `only when a screen reader was announced before it started: ${relaunch}`;
  }
  if (maps.includes("libgtk-4.so") && env.get("GSK_RENDERER") === undefined) {
    return "it is a GTK 4 app on a display without hardware rendering, started without GSK_RENDERER=cairo " +
      `(its GL renderer does not come up, and it never registers): ${relaunch}`;
  }
  return null;
}
