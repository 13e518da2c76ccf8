import assert from "node:assert/strict";
import { FakeBackend } from "../backends/fake/mod.ts";
import type { Backend } from "../ports/backend.ts";
import { deferredBackend } from "./deferred_backend.ts";
import { DriverError } from "../ports/errors.ts";

const unavailable = () => new DriverError("display_unavailable", "no display yet");

Deno.test("deferredBackend.ready makes its own attempt when one begun before the display appeared fails", async () => {
  const real = new FakeBackend();
  let displayUp = false;
  let attempts = 0;
  let releaseFirst!: () => void;
  const firstGate = new Promise<void>((resolve) => releaseFirst = resolve);
  const backend = deferredBackend({
    os: "linux",
    system: real.system,
    initialError: unavailable(),
    offlinePermissions: () => Promise.resolve([]),
    async start(): Promise<Backend> {
      attempts++;
      // The first attempt looked for the display while it was still coming up.
      const sawDisplay = displayUp;
      if (attempts === 1) await firstGate;
      if (!sawDisplay) throw unavailable();
      return real;
    },
  });
  // A part read in the background starts an attempt, which is refused at once.
  assert.throws(() => backend.screen.displays, DriverError);
  displayUp = true;
  const ready = backend.ready!();
  releaseFirst();
  await ready;
  assert.equal(attempts, 2, "the call's own attempt found the display");
  assert.deepEqual(await backend.screen.displays(), await real.screen.displays());
  await backend.close();
});
