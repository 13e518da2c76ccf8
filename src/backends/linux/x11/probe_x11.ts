/**
 * Probes of the X server for check_permissions and health_report: can the display be
 * opened (and if not, why: no DISPLAY, no server, refused credentials), and which of the
 * extensions the driver uses does it offer. Each probe opens its own connection, so it
 * tests what a fresh client would get rather than what the driver cached.
 *
 * @module
 */
import { NativeError } from "../../../../ffi/_errors.ts";
import { join } from "node:path";
import { x11 } from "../../../../ffi/linux/x11.ts";
import { xcomposite } from "../../../../ffi/linux/xcomposite.ts";
import { xext } from "../../../../ffi/linux/xext.ts";
import { xi } from "../../../../ffi/linux/xi.ts";
import { xtst } from "../../../../ffi/linux/xtst.ts";
import type { PermissionCheck } from "../../../ports/health.ts";
import { X11Capture } from "./capture.ts";
import { hasExtension } from "./extension.ts";
import { serverVendor, XConnection } from "./connection.ts";
import { parseDisplayName } from "../../../lib/x11/wire.ts";

/** What opening the display found. */
export interface DisplayProbe {
  /** The open connection (the caller closes it), or null when the display is unreachable. */
  connection: XConnection | null;
  check: PermissionCheck;
}

const EMBEDDED = "or run cua-driver with --desktop embedded (a private Xvfb desktop)";

/** Where X session cookies usually live, for the XAUTHORITY remedy. */
function cookieCandidates(): string[] {
  const home = Deno.env.get("HOME") ?? "";
  const uid = Deno.uid() ?? 1000;
  const runtime = Deno.env.get("XDG_RUNTIME_DIR") || `/run/user/${uid}`;
  const paths = [join(runtime, "gdm", "Xauthority"), home ? join(home, ".Xauthority") : ""];
  try {
    for (const entry of Deno.readDirSync(runtime)) {
      // Xwayland's cookie under mutter, and lightdm/sddm-style names.
      if (/^\.mutter-Xwaylandauth\.|^xauth_/.test(entry.name)) paths.push(join(runtime, entry.name));
    }
  } catch {
    // No runtime dir.
  }
  return paths.filter((p) => p !== "" && exists(p));
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Opens `DISPLAY` and says why it failed when it did, with the exact remedy: export
 * DISPLAY, start a server, or point XAUTHORITY at the session's cookie.
 */
export function probeDisplay(display = Deno.env.get("DISPLAY") ?? ""): DisplayProbe {
  const xauthority = Deno.env.get("XAUTHORITY") ?? null;
  const data: Record<string, unknown> = { display: display || null, xauthority };
  const fail = (detail: string, remedy: string): DisplayProbe => ({
    connection: null,
    check: { name: "display", ok: false, detail, remedy, data: { ...data, reachable: false } },
  });
  if (!display) {
    const cookie = cookieCandidates()[0] ?? "$HOME/.Xauthority";
    return fail(
      "DISPLAY is not set: no X server to talk to",
      `export DISPLAY=:0 and XAUTHORITY=${cookie} (the X session's display and cookie), ${EMBEDDED}`,
    );
  }
  if (!x11.available()) {
    return fail("libX11 cannot be loaded", "install libx11-6 (apt-get install -y libx11-6)");
  }
  let connection: XConnection;
  try {
    connection = XConnection.open(display);
  } catch {
    const socket = parseDisplayName(display)?.socket ?? null;
    if (socket !== null && !exists(socket)) {
      return fail(
        `No X server listens on DISPLAY=${display} (${socket} does not exist)`,
        `start the X session (or Xvfb ${display}), or export DISPLAY=<a running display>, ${EMBEDDED}`,
      );
    }
    const others = cookieCandidates().filter((p) => p !== xauthority);
    const cookie = others[0] ?? "<the X session's cookie file>";
    const why = xauthority === null
      ? "XAUTHORITY is not set" +
        (exists(join(Deno.env.get("HOME") ?? "/", ".Xauthority"))
          ? " and ~/.Xauthority was refused"
          : " and ~/.Xauthority does not exist")
      : `the cookie in XAUTHORITY=${xauthority} was refused`;
    return fail(
      `The X server on DISPLAY=${display} refused the connection: ${why}`,
      `export DISPLAY=${display} and XAUTHORITY=${cookie}, ${EMBEDDED}`,
    );
  }
  const { width, height } = connection.screenSize();
  const vendor = serverVendor(connection);
  const release = x11.symbols.XVendorRelease(connection.unsafeDisplay());
  return {
    connection,
    check: {
      name: "display",
      ok: true,
      detail:
        `X server "${vendor}" (release ${release}) answers on DISPLAY=${display}, screen ${width}x${height}` +
        (xauthority ? `, XAUTHORITY=${xauthority}` : ", no XAUTHORITY needed"),
      remedy: null,
      data: { ...data, reachable: true, vendor, vendor_release: release, width, height },
    },
  };
}

/** XTEST: synthetic input through the server's own input path. */
export function probeXTest(connection: XConnection): PermissionCheck {
  if (!xtst.available()) {
    return missingLibrary("xtest", "libXtst", "libxtst6", "no synthetic pointer or keyboard input");
  }
  const major = new Int32Array(1), minor = new Int32Array(1);
  const present = xtst.symbols.XTestQueryExtension(
    connection.unsafeDisplay(),
    new Int32Array(1),
    new Int32Array(1),
    major,
    minor,
  ) !== 0;
  return present
    ? ok("xtest", `XTEST ${major[0]}.${minor[0]}: pointer and keyboard input can be synthesized`, {
      version: `${major[0]}.${minor[0]}`,
    })
    : notOk(
      "xtest",
      "The X server has no XTEST extension: the driver cannot click or type",
      'enable XTEST in the X server (Xorg: Option "XTEST" "Enable" in Section "Extensions"; ' +
        "Xvfb: drop -extension XTEST)",
    );
}

/** MIT-SHM, proven by a one-pixel capture through a shared segment. */
export async function probeShm(connection: XConnection): Promise<PermissionCheck> {
  if (!xext.available()) return missingLibrary("mit_shm", "libXext", "libxext6", "captures are slower");
  if (!hasExtension(connection, "MIT-SHM")) {
    return notOk(
      "mit_shm",
      "The X server has no MIT-SHM extension: screenshots fall back to XGetImage (several times slower)",
      'enable the MIT-SHM extension (Xorg: Option "MIT-SHM" "Enable" in Section "Extensions")',
    );
  }
  const capture = new X11Capture(connection);
  try {
    const root = connection.windowAttributes(connection.root);
    if (!root) throw new NativeError("XGetWindowAttributes", 0, "no attributes for the root window");
    await capture.capture(connection.root, { x: 0, y: 0, width: 1, height: 1 }, root.visual, root.depth);
    if (capture.usesShm) {
      return ok("mit_shm", "MIT-SHM shared-memory capture works", { attached: true });
    }
    return notOk(
      "mit_shm",
      "The server offers MIT-SHM but cannot attach our segment: screenshots fall back to XGetImage",
      "enable the MIT-SHM extension (X server runs remotely?): run cua-driver on the X server's " +
        "machine, outside a container that hides /dev/shm or the IPC namespace",
      { attached: false },
    );
  } catch (error) {
    return notOk(
      "mit_shm",
      `A test capture failed: ${(error as Error).message}`,
      "check that the X server runs at depth 24 or 32 and answers GetImage",
    );
  } finally {
    capture.dispose();
  }
}

/** XComposite: covered windows keep their own pixels off-screen. */
export function probeComposite(connection: XConnection): PermissionCheck {
  if (!xcomposite.available()) {
    return missingLibrary("xcomposite", "libXcomposite", "libxcomposite1", "covered windows capture wrong");
  }
  return hasExtension(connection, "Composite")
    ? ok("xcomposite", "Composite is on: a covered window is captured with its own pixels")
    : notOk(
      "xcomposite",
      "The X server has no Composite extension: a covered window's screenshot shows what covers it",
      'enable the Composite extension (Xorg: Option "Composite" "Enable"; Xvfb: +extension Composite)',
    );
}

/** XInput 2.2: the private pointer and keyboard behind background input. */
export function probeXInput2(connection: XConnection): PermissionCheck {
  if (!xi.available()) {
    return missingLibrary("xinput2", "libXi", "libxi6", "no background input (the user's pointer is used)");
  }
  const major = new Int32Array([2]), minor = new Int32Array([2]);
  const status = xi.symbols.XIQueryVersion(connection.unsafeDisplay(), major, minor);
  const version = `${major[0]}.${minor[0]}`;
  const enough = status === 0 && (major[0] > 2 || (major[0] === 2 && minor[0] >= 2));
  if (enough && !xtst.available()) {
    return missingLibrary("xinput2", "libXtst", "libxtst6", "no background input");
  }
  return enough
    ? ok("xinput2", `XInput ${version}: background input drives a private pointer and keyboard`, {
      version,
    })
    : notOk(
      "xinput2",
      status === 0
        ? `The X server speaks XInput ${version}, older than 2.2: no background input`
        : "The X server has no XInput 2 extension: no background input",
      "use an X server with XInput 2.2 or later (Xorg 1.12+, Xvfb from Debian 12); until then input " +
        "moves the user's own pointer (delivery_mode foreground)",
      { version: status === 0 ? version : null },
    );
}

/** The CLIPBOARD selection's current owner, read on the probe connection. */
export function probeClipboardOwner(connection: XConnection): bigint {
  return x11.symbols.XGetSelectionOwner(connection.unsafeDisplay(), connection.atom("CLIPBOARD"));
}

function ok(name: string, detail: string, data?: Record<string, unknown>): PermissionCheck {
  return { name, ok: true, detail, remedy: null, ...(data ? { data } : {}) };
}

function notOk(
  name: string,
  detail: string,
  remedy: string,
  data?: Record<string, unknown>,
): PermissionCheck {
  return { name, ok: false, detail, remedy, ...(data ? { data } : {}) };
}

function missingLibrary(
  name: string,
  library: string,
  debianPackage: string,
  effect: string,
): PermissionCheck {
  return notOk(
    name,
    `${library} cannot be loaded: ${effect}`,
    `install ${debianPackage} (apt-get install -y ${debianPackage})`,
  );
}
