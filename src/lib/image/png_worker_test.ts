import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { RawImage } from "../../ports/screen.ts";
import { hasImageMagick, magickDecode, randomImage, uiImage } from "./_test_util.ts";
import { bgrxImage, peekBgrx } from "./bgrx_image.ts";
import { decodePng, encodePng, type PngFilter } from "./png.ts";
import { PngEncoderPool } from "./png_worker.ts";

const pngWorkerModule = fileURLToPath(new URL("./png_worker.ts", import.meta.url));

/** The same pixels as BGRX bytes (X byte deliberately not 255). */
function toBgrx(image: RawImage): Uint8Array {
  const out = new Uint8Array(image.data.length);
  for (let i = 0; i < out.length; i += 4) {
    out.set([image.data[i + 2], image.data[i + 1], image.data[i], 0x5a], i);
  }
  return out;
}

/** An opaque UI image whose last pixel is half transparent: only the last band sees alpha. */
function alphaAtEnd(width: number, height: number): RawImage {
  const image = uiImage(width, height);
  image.data[image.data.length - 1] = 128;
  return image;
}

function copy(image: RawImage): RawImage {
  return { width: image.width, height: image.height, data: image.data.slice() };
}

/**
 * Runs `fn` with started encoders: one Worker, and three Workers that cut even small images into
 * bands; each filtering with SIMD and then in JS. Always terminates them.
 */
async function withWorker(fn: (worker: PngEncoderPool, label: string) => Promise<void>): Promise<void> {
  for (const workers of [1, 3]) {
    for (const simd of [true, false]) {
      const worker = new PngEncoderPool({ simd, workers, minBandBytes: 64 });
      try {
        assert.equal(await worker.start(), true, "the encoder Worker starts");
        assert.equal(await worker.allReady(), workers, "every Worker starts");
        assert.equal(worker.state, "ready");
        await fn(worker, `${workers} Worker(s), ${simd ? "SIMD" : "JS"}`);
      } finally {
        worker.close();
      }
      assert.equal(worker.state, "closed");
    }
  }
}

Deno.test("PngEncoderPool output decodes to the in-thread encoder's pixels", async () => {
  await withWorker(async (worker, filterer) => {
    const cases: [string, RawImage][] = [
      ["ui 333x97", uiImage(333, 97)],
      ["random opaque 61x17", randomImage(61, 17, false, 3)],
      ["random alpha 30x11", randomImage(30, 11, true, 4)],
      ["alpha only in the last band 40x12", alphaAtEnd(40, 12)],
      ["one pixel", randomImage(1, 1, false, 5)],
    ];
    for (const [label, image] of cases) {
      for (const filter of ["up", "sub", "none"] as PngFilter[]) {
        const inThread = decodePng(await encodePng(image, { filter }));
        const subject = copy(image);
        const png = await worker.encode(subject, { filter });
        assert.deepEqual(decodePng(png), inThread, `${filterer}: ${label} ${filter}`);
        const opaque = image.data.every((v, i) => i % 4 !== 3 || v === 255);
        assert.equal(png[25], opaque ? 2 : 6, `${label}: colour type`);
        assert.deepEqual(subject.data, image.data, `${label}: the pixels come back after the transfer`);
      }
    }
  });
});

Deno.test("PngEncoderPool filters BGRX captures directly, as opaque RGB", async () => {
  await withWorker(async (worker, filterer) => {
    for (const image of [uiImage(203, 64), randomImage(7, 5, false, 9), randomImage(1024, 8, false, 2)]) {
      const captured = bgrxImage(image.width, image.height, toBgrx(image));
      const png = await worker.encode(captured);
      assert.equal(png[25], 2, `${filterer}: colour type 2`);
      assert.deepEqual(decodePng(png), decodePng(await encodePng(image)));
      assert.ok(peekBgrx(captured), "still BGRX: the encode did not convert it");
      assert.deepEqual(captured.data, image.data, "and it converts to the right RGBA when read");
    }
  });
});

Deno.test("PngEncoderPool copies instead of transferring a view into a larger buffer", async () => {
  await withWorker(async (worker) => {
    const image = uiImage(40, 30);
    const buffer = new Uint8Array(image.data.length + 8);
    buffer.set(image.data, 4);
    const view = buffer.subarray(4, 4 + image.data.length);
    const png = await worker.encode({ width: 40, height: 30, data: view });
    assert.deepEqual(decodePng(png), image);
    assert.equal(buffer.length, image.data.length + 8, "the caller's buffer was not detached");
  });
});

Deno.test("PngEncoderPool rejects bad sizes like encodePng and keeps working", async () => {
  await withWorker(async (worker) => {
    await assert.rejects(() => worker.encode({ width: 2, height: 2, data: new Uint8Array(15) }), RangeError);
    await assert.rejects(() => worker.encode({ width: 0, height: 2, data: new Uint8Array(0) }), RangeError);
    const image = randomImage(5, 5);
    assert.deepEqual(decodePng(await worker.encode(copy(image))), image);
  });
});

Deno.test("PngEncoderPool encodes on this thread while the Worker starts", async () => {
  const worker = new PngEncoderPool();
  try {
    const image = uiImage(64, 48);
    const png = await worker.encode(image);
    assert.deepEqual(png, await encodePng(image), "the in-thread encoder's exact bytes");
    assert.notEqual(worker.state, "idle", "the first encode started the Worker");
    assert.equal(await worker.start(), true);
  } finally {
    worker.close();
  }
});

Deno.test("PngEncoderPool falls back to the in-thread encoder when the Worker cannot be created", async () => {
  const worker = new PngEncoderPool({
    spawn: () => {
      throw new Error("no Worker here");
    },
  });
  assert.equal(await worker.start(), false);
  assert.equal(worker.state, "failed");
  const image = uiImage(50, 20);
  assert.deepEqual(await worker.encode(image), await encodePng(image));
  const captured = bgrxImage(50, 20, toBgrx(image));
  assert.deepEqual(decodePng(await worker.encode(captured)), image);
  worker.close();
});

Deno.test("PngEncoderPool falls back when the Worker's script fails, without ending the process", async () => {
  let spawned: Worker | null = null;
  const worker = new PngEncoderPool({
    spawn: () =>
      spawned = new Worker(
        "data:text/javascript," + encodeURIComponent("throw new Error('this test Worker fails on purpose');"),
        {
          type: "module",
        },
      ),
  });
  assert.equal(await worker.start(), false);
  assert.equal(worker.state, "failed");
  assert.ok(spawned, "a Worker was created");
  const image = randomImage(9, 9);
  assert.deepEqual(decodePng(await worker.encode(copy(image))), image);
  worker.close();
});

Deno.test("PngEncoderPool.close rejects pending encodes and later ones run on this thread", async () => {
  const worker = new PngEncoderPool();
  assert.equal(await worker.start(), true);
  const pending = worker.encode(uiImage(800, 600));
  worker.close();
  await assert.rejects(pending, /closed/);
  assert.equal(worker.state, "closed");
  assert.equal(await worker.start(), false, "a closed encoder does not start again");
  const image = randomImage(4, 4);
  assert.deepEqual(await worker.encode(image), await encodePng(image));
});

/** Runs a script with `deno run` and returns its exit code and output, killing it after `ms`. */
async function runScript(path: string, ms: number): Promise<{ code: number | null; stdout: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", "--cached-only", path],
    env: { DENO_NO_PACKAGE_JSON: "1" },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, ms);
  const out = await child.output();
  clearTimeout(timer);
  return { code: timedOut ? null : out.code, stdout: new TextDecoder().decode(out.stdout) };
}

Deno.test("closePngWorker leaves nothing that keeps the process alive", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cua-png-worker-" });
  try {
    const script = `${dir}/main.ts`;
    await Deno.writeTextFile(
      script,
      `import { closePngWorker, encodePngOffThread, pngWorkerState, startPngWorker } from ${
        JSON.stringify(pngWorkerModule)
      };
const ready = await startPngWorker();
const png = await encodePngOffThread({ width: 2, height: 1, data: new Uint8Array([1, 2, 3, 255, 4, 5, 6, 255]) });
const state = pngWorkerState();
closePngWorker();
console.log(JSON.stringify({ ready, state, bytes: png.length, after: pngWorkerState() }));
`,
    );
    const { code, stdout } = await runScript(script, 20_000);
    assert.equal(code, 0, "the process exits on its own once the Worker is closed");
    const result = JSON.parse(stdout);
    assert.deepEqual({ ...result, bytes: result.bytes > 0 }, {
      ready: true,
      state: "ready",
      bytes: true,
      after: "none",
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("PngEncoderPool runs from a single bundled file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cua-png-bundle-" });
  try {
    await Deno.writeTextFile(
      `${dir}/entry.ts`,
      `import { PngEncoderPool } from ${JSON.stringify(pngWorkerModule)};
import { bgrxImage } from ${JSON.stringify(pngWorkerModule.replace(/png_worker\.ts$/, "bgrx_image.ts"))};
import { decodePng } from ${JSON.stringify(pngWorkerModule.replace(/png_worker\.ts$/, "png.ts"))};
const worker = new PngEncoderPool();
const ready = await worker.start();
const png = await worker.encode(bgrxImage(3, 1, new Uint8Array([3, 2, 1, 0, 6, 5, 4, 0, 9, 8, 7, 0])));
worker.close();
console.log(JSON.stringify({ ready, pixels: [...decodePng(png).data] }));
`,
    );
    const bundled = await new Deno.Command(Deno.execPath(), {
      args: ["bundle", "--quiet", "--platform", "deno", `${dir}/entry.ts`, "-o", `${dir}/bundle.js`],
      env: { DENO_NO_PACKAGE_JSON: "1" },
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    assert.ok(bundled.success, "deno bundle succeeded");
    const { code, stdout } = await runScript(`${dir}/bundle.js`, 20_000);
    assert.equal(code, 0);
    assert.deepEqual(JSON.parse(stdout), { ready: true, pixels: [1, 2, 3, 255, 4, 5, 6, 255, 7, 8, 9, 255] });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("PngEncoderPool bands make one standard PNG that pngcheck and ImageMagick read", async () => {
  const pool = new PngEncoderPool({ workers: 3 });
  try {
    assert.equal(await pool.allReady(), 3);
    const image = uiImage(1920, 1080);
    const png = await pool.encode(bgrxImage(1920, 1080, toBgrx(image)));
    assert.equal(pool.readyWorkers, 3, "three bands");
    const dir = await Deno.makeTempDir({ prefix: "cua-png-bands-" });
    try {
      await Deno.writeFile(`${dir}/bands.png`, png);
      const check = await new Deno.Command("pngcheck", { args: ["-v", `${dir}/bands.png`] }).output()
        .catch(() => null);
      if (check === null) {
        assert.notEqual(Deno.env.get("CUA_E2E_REQUIRE"), "1", "pngcheck is installed (scripts/setup.sh)");
      } else {
        const report = new TextDecoder().decode(check.stdout);
        assert.ok(check.success, report);
        assert.match(report, /No errors detected/);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
    if (await hasImageMagick()) assert.deepEqual(await magickDecode(png, "png"), image.data);
    assert.deepEqual(decodePng(png), image);
  } finally {
    pool.close();
  }
});
