/**
 * The Linux perception back end: Tesseract through FFI for text, installed from the
 * distribution's packages. A missing library or language file is reported, never
 * fetched: parse_visual_regions then answers `not_installed` with the install command.
 *
 * @module
 */
import { readCString } from "../../../ffi/_c.ts";
import { tesseract } from "../../../ffi/linux/tesseract.ts";
import { DriverError } from "../../ports/errors.ts";
import { toGrey } from "../../lib/image/grey.ts";
import type {
  PerceivedLine,
  PerceptionBackend,
  PerceptionInstallOutcome,
  PerceptionInstallPlan,
  PerceptionStatus,
} from "../../ports/perception.ts";
import type { RawImage } from "../../ports/screen.ts";
import { perceptionInstallPlan, runPerceptionInstall } from "./perception/install.ts";
import { TesseractEngine } from "./perception/tesseract_engine.ts";
import { findTessdata } from "./perception/tessdata.ts";

const LANGUAGE = "eng";

/** The remedy every not_installed answer carries. */
export const PERCEPTION_REMEDY =
  `cua-driver install_extension '{"confirm": true}' (or, as root: apt-get install tesseract-ocr tesseract-ocr-eng)`;

/**
 * Engines in parallel (`CUA_DRIVER_PERCEPTION_THREADS` overrides): one per core, at most
 * four; each costs about 30 MB, and each band re-reads its neighbours' overlap rows.
 */
function threadCount(): number {
  const override = Number(Deno.env.get("CUA_DRIVER_PERCEPTION_THREADS"));
  if (Number.isInteger(override) && override >= 1 && override <= 8) return override;
  return Math.max(1, Math.min(4, navigator.hardwareConcurrency || 1));
}

/**
 * Opens libtesseract with OpenMP limited to one thread per team, unless the user chose
 * a limit: libgomp reads `OMP_THREAD_LIMIT` once, when libtesseract loads it.
 */
function openLibrary(retry: boolean): boolean {
  const chosen = Deno.env.get("OMP_THREAD_LIMIT");
  if (chosen === undefined) Deno.env.set("OMP_THREAD_LIMIT", "1");
  try {
    return retry ? tesseract.retry() : tesseract.available();
  } finally {
    // Children the driver launches keep the user's environment.
    if (chosen === undefined) Deno.env.delete("OMP_THREAD_LIMIT");
  }
}

/** The `not_installed` refusal for a status that is not installed. */
export function notInstalled(status: PerceptionStatus): DriverError {
  return new DriverError("not_installed", `The perception engine is not installed: ${status.missing}`, {
    extension: "perception",
    missing: status.missing,
    remedy: status.remedy,
    hint: `install it with ${status.remedy ?? PERCEPTION_REMEDY}, then call parse_visual_regions again`,
  });
}

/** Tesseract-backed {@linkcode PerceptionBackend}. */
export class LinuxPerception implements PerceptionBackend {
  #status: PerceptionStatus | null = null;
  #engine: TesseractEngine | null = null;

  status(): Promise<PerceptionStatus> {
    return Promise.resolve(this.#statusNow());
  }

  #statusNow(): PerceptionStatus {
    return this.#status ??= this.#probe(false);
  }

  #probe(retry: boolean): PerceptionStatus {
    const base = { engine: "tesseract", version: null, remedy: PERCEPTION_REMEDY };
    if (!openLibrary(retry)) {
      return {
        ...base,
        installed: false,
        missing: "libtesseract.so.5 (package libtesseract5) cannot be loaded",
      };
    }
    const version = readCString(tesseract.symbols.TessVersion());
    const data = findTessdata(LANGUAGE);
    if (!data.dir) {
      return {
        ...base,
        version,
        installed: false,
        missing: `${LANGUAGE}.traineddata (package tesseract-ocr-eng) is not in ${data.tried.join(", ")}`,
      };
    }
    return { ...base, version, installed: true, missing: null, remedy: null };
  }

  async recognizeText(image: RawImage, signal: AbortSignal): Promise<PerceivedLine[]> {
    const status = this.#statusNow();
    if (!status.installed) {
      throw notInstalled(status);
    }
    this.#engine ??= new TesseractEngine(findTessdata(LANGUAGE).dir!, threadCount(), LANGUAGE);
    return await this.#engine.recognize(toGrey(image), signal);
  }

  installPlan(): Promise<PerceptionInstallPlan | null> {
    return Promise.resolve(perceptionInstallPlan());
  }

  async install(plan: PerceptionInstallPlan, signal: AbortSignal): Promise<PerceptionInstallOutcome> {
    const outcome = await runPerceptionInstall(plan, signal);
    // A running driver picks the engine up without a restart.
    this.#status = this.#probe(true);
    return outcome;
  }

  /** Ends the engines once the page in progress is done. */
  async close(): Promise<void> {
    await this.#engine?.close();
    this.#engine = null;
  }
}
