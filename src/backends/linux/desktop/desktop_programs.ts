/**
 * The programs an embedded desktop runs, where Debian installs them, and which
 * package brings each one.
 *
 * @module
 */
import { DriverError } from "../../../ports/errors.ts";

/** One program the embedded desktop needs. */
export interface DesktopProgram {
  /** Name used in messages. */
  readonly name: string;
  /** Absolute paths to try first, then `name` on PATH. */
  readonly paths: readonly string[];
  /** Debian package that provides it. */
  readonly debianPackage: string;
}

/** Everything {@linkcode resolveDesktopPrograms} looks up. */
export const DESKTOP_PROGRAMS = {
  xvfb: { name: "Xvfb", paths: ["/usr/bin/Xvfb"], debianPackage: "xvfb" },
  dbusDaemon: { name: "dbus-daemon", paths: ["/usr/bin/dbus-daemon"], debianPackage: "dbus" },
  dbusSend: { name: "dbus-send", paths: ["/usr/bin/dbus-send"], debianPackage: "dbus" },
  atspiBusLauncher: {
    name: "at-spi-bus-launcher",
    // Debian 12 uses /usr/libexec; Debian 11 and older Ubuntu use /usr/lib/at-spi2-core.
    paths: ["/usr/libexec/at-spi-bus-launcher", "/usr/lib/at-spi2-core/at-spi-bus-launcher"],
    debianPackage: "at-spi2-core",
  },
  openbox: { name: "openbox", paths: ["/usr/bin/openbox"], debianPackage: "openbox" },
  xprop: { name: "xprop", paths: ["/usr/bin/xprop"], debianPackage: "x11-utils" },
  setsid: { name: "setsid", paths: ["/usr/bin/setsid", "/bin/setsid"], debianPackage: "util-linux" },
} as const satisfies Record<string, DesktopProgram>;

/** Absolute path of each program in {@linkcode DESKTOP_PROGRAMS}. */
export type DesktopProgramPaths = { readonly [K in keyof typeof DESKTOP_PROGRAMS]: string };

function isExecutable(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    return info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0;
  } catch {
    return false;
  }
}

/** Finds `program` at its known paths, then on PATH; null when it is not installed. */
export function findProgram(program: DesktopProgram): string | null {
  for (const path of program.paths) {
    if (isExecutable(path)) return path;
  }
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    if (dir !== "" && isExecutable(`${dir}/${program.name}`)) return `${dir}/${program.name}`;
  }
  return null;
}

/**
 * Resolves every program the embedded desktop needs, all at once, so one error names
 * everything that is missing.
 *
 * @throws {DriverError} `display_unavailable` naming the missing programs and their Debian packages.
 */
export function resolveDesktopPrograms(): DesktopProgramPaths {
  const found: Partial<Record<keyof typeof DESKTOP_PROGRAMS, string>> = {};
  const missing: DesktopProgram[] = [];
  for (const [key, program] of Object.entries(DESKTOP_PROGRAMS)) {
    const path = findProgram(program);
    if (path === null) missing.push(program);
    else found[key as keyof typeof DESKTOP_PROGRAMS] = path;
  }
  if (missing.length > 0) {
    const names = missing.map((p) => `"${p.name}" (package ${p.debianPackage})`).join(", ");
    const packages = [...new Set(missing.map((p) => p.debianPackage))].join(" ");
    throw new DriverError("display_unavailable", `Cannot start the embedded desktop: missing ${names}`, {
      hint: `run "sh scripts/setup.sh" or "apt-get install -y ${packages}"`,
      missing: missing.map((p) => p.name),
      packages: packages.split(" "),
    });
  }
  return found as DesktopProgramPaths;
}
