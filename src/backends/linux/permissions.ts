/**
 * check_permissions on Linux: every facility the driver needs, each with what was found
 * and the exact remedy when it is missing. Linux has no permission prompts: each piece is
 * either there (a reachable X server, its extensions, the AT-SPI bus) or must be set up.
 *
 * @module
 */
import type { ClipboardBackend } from "../../ports/clipboard.ts";
import type { PermissionCheck } from "../../ports/health.ts";
import { type AtspiProbe, probeAtspi } from "./atspi/probe_atspi.ts";
import {
  probeClipboardOwner,
  probeComposite,
  probeDisplay,
  probeShm,
  probeXInput2,
  probeXTest,
} from "./x11/probe_x11.ts";

/** The checks, in report order. */
export const LINUX_PERMISSION_CHECKS = [
  "display",
  "atspi",
  "xtest",
  "mit_shm",
  "xcomposite",
  "xinput2",
  "clipboard",
] as const;

/**
 * Runs every check; never throws for a missing facility. `clipboard` is null while the
 * back end has no desktop yet (the clipboard check then needs a reachable display).
 */
export async function linuxPermissions(clipboard: ClipboardBackend | null): Promise<PermissionCheck[]> {
  const atspi = probeAtspi();
  const display = probeDisplay();
  const connection = display.connection;
  try {
    const x11Checks: PermissionCheck[] = connection === null
      ? ["xtest", "mit_shm", "xcomposite", "xinput2", "clipboard"].map((name) => ({
        name,
        ok: false,
        detail: "Not checked: the X server is unreachable",
        remedy: display.check.remedy,
      }))
      : clipboard === null
      ? [
        probeXTest(connection),
        await probeShm(connection),
        probeComposite(connection),
        probeXInput2(connection),
      ]
      : [
        probeXTest(connection),
        await probeShm(connection),
        probeComposite(connection),
        probeXInput2(connection),
        await clipboardCheck(clipboard, probeClipboardOwner(connection)),
      ];
    return [display.check, atspiCheck(await atspi), ...x11Checks];
  } finally {
    connection?.close();
  }
}

/** The AT-SPI probe as one check; its steps go in `data`. */
export function atspiCheck(probe: AtspiProbe): PermissionCheck {
  const { ok: _ok, failure: _failure, remedy: _remedy, ...data } = probe;
  if (!probe.ok) {
    return {
      name: "atspi",
      ok: false,
      detail: probe.failure ?? "AT-SPI is unavailable",
      remedy: probe.remedy,
      data,
    };
  }
  const owner = probe.a11y_bus_owned ? "org.a11y.Bus is owned" : "org.a11y.Bus is activatable";
  const enabled = probe.is_enabled === false
    ? "; org.a11y.Status.IsEnabled is false (cua-driver sets it on its first accessibility call; " +
      "apps started before then may need a restart to expose their trees)"
    : `; IsEnabled=${probe.is_enabled}`;
  return {
    name: "atspi",
    ok: true,
    detail: `${owner} on the session bus, the AT-SPI bus at ${probe.a11y_bus_address} answers, ` +
      `${probe.registered_apps} registered application${probe.registered_apps === 1 ? "" : "s"}${enabled}`,
    remedy: null,
    data,
  };
}

async function clipboardCheck(clipboard: ClipboardBackend, owner: bigint): Promise<PermissionCheck> {
  const ownerText = owner === 0n ? "no owner" : `owned by window 0x${owner.toString(16)}`;
  try {
    const content = await clipboard.read({ text: false, image: false });
    return {
      name: "clipboard",
      ok: true,
      detail: owner === 0n
        ? "CLIPBOARD has no owner (empty); the driver can take it to write"
        : `CLIPBOARD is ${ownerText}, offering ${content.types.length} types`,
      remedy: null,
      data: { owner: owner === 0n ? null : Number(owner), types: content.types.length },
    };
  } catch (error) {
    return {
      name: "clipboard",
      ok: false,
      detail: `Reading CLIPBOARD (${ownerText}) failed: ${(error as Error).message}`,
      remedy: owner === 0n
        ? "check that the X server accepts new clients (display check)"
        : `the app owning window 0x${owner.toString(16)} does not answer clipboard requests: ` +
          "close or restart the app that copied last, or copy something else",
      data: { owner: owner === 0n ? null : Number(owner) },
    };
  }
}
