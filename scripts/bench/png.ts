/**
 * PNG benchmark: a 1920x1080 screenshot (XShm capture + PNG) by the driver's encoder pool
 * against C (XShmGetImage + libpng, filter Up, zlib level 2), both timed inside their own
 * process per frame, in alternating rounds. Both outputs are checked with pngcheck and
 * compared in size.
 *
 * @module
 */
import type { Backend } from "../../src/ports/backend.ts";
import { PngEncoderPool } from "../../src/lib/image/png_worker.ts";
import { decodePng } from "../../src/lib/image/png.ts";
import process from "node:process";
import { median } from "./peer_report.ts";

const source = new URL("./png_peer.c", import.meta.url).pathname;

/** What the PNG benchmark measured. */
export interface PngBench {
  width: number;
  height: number;
  workers: number;
  /** Capture + encode per frame. */
  ours_ms: number[];
  ours_encode_ms: number[];
  ours_bytes: number;
  libpng_ms: number[];
  libpng_encode_ms: number[];
  libpng_bytes: number;
  /** CPU time per frame: the driver's process (all threads) and the C program's. */
  ours_cpu_ms: number[];
  libpng_cpu_ms: number[];
  pngcheck_ok: boolean;
}

/** Builds the C peer (once per source change) in the bench cache; returns its path. */
async function buildPeer(): Promise<string> {
  const dir = `${Deno.env.get("XDG_CACHE_HOME") ?? `${Deno.env.get("HOME")}/.cache`}/cua-driver-bench`;
  await Deno.mkdir(dir, { recursive: true });
  const binary = `${dir}/png_peer`;
  const built = await Deno.stat(binary).then((s) => s.mtime?.getTime() ?? 0, () => 0);
  if (built < ((await Deno.stat(source)).mtime?.getTime() ?? 0)) {
    const out = await new Deno.Command("cc", {
      args: ["-O2", "-o", binary, source, "-lpng", "-lXext", "-lX11"],
      stderr: "inherit",
    }).output();
    if (!out.success) {
      throw new Error("bench: cannot build png_peer.c (gcc, libpng-dev, libx11-dev, libxext-dev)");
    }
  }
  return binary;
}

async function pngcheck(png: Uint8Array): Promise<boolean> {
  const path = await Deno.makeTempFile({ suffix: ".png" });
  try {
    await Deno.writeFile(path, png);
    const out = await new Deno.Command("pngcheck", { args: ["-q", path] }).output();
    return out.success;
  } finally {
    await Deno.remove(path);
  }
}

/** Runs the comparison on the display of `backend`, `rounds` rounds of `perRound` frames each. */
export async function benchPng(
  backend: Backend,
  env: Record<string, string>,
  rounds = 6,
  perRound = 5,
): Promise<PngBench> {
  const peer = await buildPeer();
  const pool = new PngEncoderPool();
  const workers = await pool.allReady();
  const ours: number[] = [], oursEncode: number[] = [], theirs: number[] = [], theirsEncode: number[] = [];
  const oursCpu: number[] = [], theirsCpu: number[] = [];
  let width = 0, height = 0, oursBytes = 0, theirBytes = 0;
  let last: Uint8Array = new Uint8Array();
  try {
    const frame = async () => {
      const cpu = process.cpuUsage();
      const t0 = performance.now();
      const image = await backend.screen.captureDisplay("primary");
      const t1 = performance.now();
      last = await pool.encode(image);
      const t2 = performance.now();
      [width, height, oursBytes] = [image.width, image.height, last.length];
      const used = process.cpuUsage(cpu);
      return { total: t2 - t0, encode: t2 - t1, cpu: (used.user + used.system) / 1000 };
    };
    await frame(); // warm-up
    for (let round = 0; round < rounds; round++) {
      const out = await new Deno.Command(peer, { args: [String(perRound), "2"], env, stderr: "inherit" })
        .output();
      if (!out.success) throw new Error("png_peer failed");
      const result = JSON.parse(new TextDecoder().decode(out.stdout));
      result.capture_ms.forEach((c: number, i: number) => theirs.push(c + result.encode_ms[i]));
      theirsEncode.push(...result.encode_ms);
      theirsCpu.push(...result.cpu_ms);
      theirBytes = result.bytes;
      for (let i = 0; i < perRound; i++) {
        const { total, encode, cpu } = await frame();
        ours.push(total);
        oursEncode.push(encode);
        oursCpu.push(cpu);
      }
    }
    decodePng(last); // a malformed stream throws here
    return {
      width,
      height,
      workers,
      ours_ms: ours,
      ours_encode_ms: oursEncode,
      ours_bytes: oursBytes,
      libpng_ms: theirs,
      libpng_encode_ms: theirsEncode,
      libpng_bytes: theirBytes,
      ours_cpu_ms: oursCpu,
      libpng_cpu_ms: theirsCpu,
      pngcheck_ok: await pngcheck(last),
    };
  } finally {
    pool.close();
  }
}

if (import.meta.main) {
  const { withDesktop } = await import("./desktop.ts");
  const { startRuntime } = await import("../../src/runtime.ts");
  await withDesktop(async (env) => {
    const app = new Deno.Command("gtk3-widget-factory", { env, stdout: "null", stderr: "null" }).spawn();
    const runtime = await startRuntime({ desktop: "system", permissionMode: "standard" });
    try {
      await new Promise((resolve) => setTimeout(resolve, 2000)); // let the app draw (a benchmark, not a test)
      const result = await benchPng(runtime.registry.backend, env, Number(Deno.args[0]) || 6);
      console.log(JSON.stringify(
        {
          ...result,
          median_ours: median(result.ours_ms),
          median_ours_encode: median(result.ours_encode_ms),
          median_libpng: median(result.libpng_ms),
          median_libpng_encode: median(result.libpng_encode_ms),
          median_ours_cpu: median(result.ours_cpu_ms),
          median_libpng_cpu: median(result.libpng_cpu_ms),
          ratio: median(result.ours_ms) / median(result.libpng_ms),
        },
        (key, value) => key.endsWith("_ms") ? undefined : value,
        1,
      ));
    } finally {
      await runtime.close();
      app.kill();
      await app.status;
    }
  });
}
