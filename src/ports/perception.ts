/**
 * The perception capability: local text recognition over a window's pixels.
 *
 * @module
 */

import type { Rect } from "./geometry.ts";
import type { RawImage } from "./screen.ts";
import type { PackageInstallOutcome, PackageInstallPlan } from "./system.ts";

/** One recognized word, in the pixel space of the image it was read from. */
export interface PerceivedWord {
  text: string;
  bounds: Rect;
  /** 0..1. */
  confidence: number;
}

/** Words the engine read as one line of text, left to right. */
export interface PerceivedLine {
  words: PerceivedWord[];
}

/** Whether the local perception engine can run, and which one it is. */
export interface PerceptionStatus {
  installed: boolean;
  /** Engine name ("tesseract"). */
  engine: string;
  /** Engine version when installed. */
  version: string | null;
  /** What is missing when not installed (library, language data), for the message. */
  missing: string | null;
  /** The exact step that installs it, when not installed. */
  remedy: string | null;
}

/** How the engine is installed through the system package manager. */
export type PerceptionInstallPlan = PackageInstallPlan;

/** What an install attempt did. */
export type PerceptionInstallOutcome = PackageInstallOutcome;

/**
 * Local, CPU-only text recognition on a screenshot (no network, no remote model).
 * Optional: a back end without it has `perception` undefined. Every method is async, so that
 * a back end can load the engine's code on first use.
 */
export interface PerceptionBackend {
  /** Probes the engine (library and language data); cheap after the first call. */
  status(): Promise<PerceptionStatus>;
  /**
   * Recognizes the text of an image, lines in reading order, in the image's pixel space.
   *
   * @throws {DriverError} `not_installed` when the engine cannot run.
   */
  recognizeText(image: RawImage, signal: AbortSignal): Promise<PerceivedLine[]>;
  /** The install command for this system; null when no supported package manager exists. */
  installPlan(): Promise<PerceptionInstallPlan | null>;
  /** Runs the install plan, then probes the engine again. */
  install(plan: PerceptionInstallPlan, signal: AbortSignal): Promise<PerceptionInstallOutcome>;
}
