/**
 * One download through a ref: the browser saves into a private temporary directory
 * (`Browser.setDownloadBehavior` allowAndName), and the finished file is copied into
 * the approved root under its suggested name (never overwriting, never following a
 * link), then the temporary directory goes.
 *
 * @module
 */
import { basename, join } from "node:path";
import { DriverError } from "../../ports/errors.ts";
import { mouseClick, pointOf } from "./input.ts";
import type { TabHandle } from "./resolve.ts";
import type { SnapshotRef } from "./snapshot.ts";

const BEGIN_TIMEOUT_MS = 10_000;
const FINISH_TIMEOUT_MS = 120_000;

/** A saved download. */
export interface SavedDownload {
  path: string;
  bytes: number;
  sha256: string;
  suggested_filename: string;
  url: string;
}

/** A file name safe to create in the root: no directories, no control characters, no leading dots. */
export function safeFileName(suggested: string): string {
  // deno-lint-ignore no-control-regex
  const controls = /[\x00-\x1f\x7f]/g;
  const name = basename(suggested.replaceAll("\\", "/")).replace(controls, "").replace(/^\.+/, "").trim();
  return name === "" ? "download" : name.slice(0, 200);
}

async function createUnique(root: string, name: string): Promise<{ path: string; file: Deno.FsFile }> {
  const dot = name.lastIndexOf(".");
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
  for (let n = 0; n < 1000; n++) {
    const path = join(root, n === 0 ? name : `${stem} (${n})${ext}`);
    try {
      return { path, file: await Deno.open(path, { createNew: true, write: true, mode: 0o644 }) };
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
  }
  throw new DriverError("file_error", `Cannot find a free name for ${name} in ${root}`);
}

async function sha256Hex(path: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Clicks `ref` and saves the download it starts into `root`.
 *
 * @throws {DriverError} `browser_action_unavailable` (no download began, or it was
 *   canceled, or a dialog opened), `timeout`.
 */
export async function downloadVia(handle: TabHandle, ref: SnapshotRef, root: string): Promise<SavedDownload> {
  const { target, tab } = handle;
  const conn = target.conn;
  const temp = await Deno.makeTempDir({ prefix: "cua-download-" });
  try {
    await conn.send("Browser.setDownloadBehavior", {
      behavior: "allowAndName",
      downloadPath: temp,
      eventsEnabled: true,
    });
    const begun = conn.waitFor("Browser.downloadWillBegin", { timeoutMs: BEGIN_TIMEOUT_MS });
    const at = await pointOf(tab, ref);
    if ((await mouseClick(tab, at, "left", 1)) === "dialog") {
      begun.cancel();
      throw new DriverError(
        "browser_action_unavailable",
        `Clicking ${ref.ref} opened a dialog instead of a download`,
        {
          dialog: tab.dialog,
          hint: "answer the dialog with browser_dialog",
        },
      );
    }
    const started = await begun.promise;
    if (!started) {
      throw new DriverError(
        "browser_action_unavailable",
        `Clicking ${ref.ref} started no download within 10 s`,
        {
          ref: ref.ref,
          hint: "pass the ref of a download link or button",
        },
      );
    }
    const guid = started.guid as string;
    const done = await conn.waitFor("Browser.downloadProgress", {
      timeoutMs: FINISH_TIMEOUT_MS,
      accept: (p) => p.guid === guid && (p.state === "completed" || p.state === "canceled"),
    }).promise;
    if (!done) throw new DriverError("timeout", `The download of ${started.url} did not finish within 120 s`);
    if (done.state === "canceled") {
      throw new DriverError(
        "browser_action_unavailable",
        `The browser canceled the download of ${started.url}`,
        {
          hint: "the page or the browser stopped it; try again",
        },
      );
    }
    const source = join(temp, guid);
    const { path, file } = await createUnique(root, safeFileName(started.suggestedFilename ?? ""));
    try {
      // pipeTo closes both files.
      await (await Deno.open(source, { read: true })).readable.pipeTo(file.writable);
    } catch (error) {
      await Deno.remove(path).catch(() => {});
      throw error;
    }
    const bytes = (await Deno.stat(path)).size;
    return {
      path,
      bytes,
      sha256: await sha256Hex(path),
      suggested_filename: started.suggestedFilename ?? "",
      url: started.url,
    };
  } finally {
    await conn.send("Browser.setDownloadBehavior", { behavior: "default" }).catch(() => {});
    await Deno.remove(temp, { recursive: true }).catch(() => {});
  }
}
