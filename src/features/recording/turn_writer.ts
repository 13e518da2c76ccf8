/**
 * Writes one turn folder, completely or not at all: everything goes into
 * `.turn-NNNNN.partial/` and one rename (atomic on one file system) gives it its final
 * name, so a crash leaves every finished turn readable and no half turn named `turn-*`.
 *
 * @module
 */
import { join } from "node:path";
import type { Point } from "../../ports/geometry.ts";
import type { RawImage } from "../../ports/screen.ts";
import { encodePng } from "../../lib/image/png.ts";
import { drawCrosshair } from "./crosshair.ts";
import type { EvidenceStatus, StateDocument } from "./evidence.ts";

/** Digits of a turn number in its folder name. */
const TURN_DIGITS = 5;

/** The final folder name of turn `n`: `turn-00001`. */
export function turnFolderName(n: number): string {
  return `turn-${String(n).padStart(TURN_DIGITS, "0")}`;
}

/** The folder a turn is written in before it is complete. */
export function partialFolderName(n: number): string {
  return `.${turnFolderName(n)}.partial`;
}

/** True for the name of a complete turn folder (`turn-` then digits). */
export function isTurnFolderName(name: string): boolean {
  return /^turn-\d+$/.test(name);
}

/** Everything in one turn folder. */
export interface TurnContent {
  action: Record<string, unknown>;
  evidence: {
    schema: "cua-turn-evidence/v1";
    before: { state: EvidenceStatus; screenshot: EvidenceStatus };
    after: { state: EvidenceStatus; screenshot: EvidenceStatus };
    click: EvidenceStatus;
  };
  before: { image: RawImage | null; state: StateDocument | null };
  after: { image: RawImage | null; state: StateDocument | null };
  /** Where the click went, in before.png pixels; click.png is drawn when set. */
  click: Point | null;
}

/**
 * Encodes and writes turn `n` under `dir` and renames it into place.
 *
 * @returns The final folder path.
 * @throws {Error} when a write fails (the partial folder is removed).
 */
export async function writeTurn(dir: string, n: number, content: TurnContent): Promise<string> {
  const partial = join(dir, partialFolderName(n));
  const final = join(dir, turnFolderName(n));
  await Deno.remove(partial, { recursive: true }).catch(() => {});
  await Deno.mkdir(partial, { recursive: true });
  try {
    const json = (name: string, value: unknown) =>
      Deno.writeTextFile(join(partial, name), JSON.stringify(value, null, 2) + "\n");
    const png = async (name: string, image: RawImage) =>
      await Deno.writeFile(join(partial, name), await encodePng(image));
    await json("action.json", content.action);
    await json("evidence.json", content.evidence);
    if (content.before.state) await json("before_state.json", content.before.state);
    if (content.after.state) {
      await json("after_state.json", content.after.state);
      await json("app_state.json", content.after.state);
    }
    if (content.before.image) await png("before.png", content.before.image);
    if (content.after.image) {
      const bytes = await encodePng(content.after.image);
      await Deno.writeFile(join(partial, "after.png"), bytes);
      await Deno.writeFile(join(partial, "screenshot.png"), bytes);
    }
    if (content.click && content.before.image) {
      await png("click.png", drawCrosshair(content.before.image, content.click));
    }
    await syncDir(partial);
    await Deno.rename(partial, final);
  } catch (error) {
    await Deno.remove(partial, { recursive: true }).catch(() => {});
    throw error;
  }
  return final;
}

/** Flushes a folder's entries, so a rename never publishes files the disk has not seen. */
async function syncDir(path: string): Promise<void> {
  for await (const entry of Deno.readDir(path)) {
    if (!entry.isFile) continue;
    using file = await Deno.open(join(path, entry.name), { read: true });
    await file.syncData();
  }
}
