/**
 * Test harness: the macOS back end over a fresh fake Mac, closed and checked for
 * ownership problems when the test's scope ends (`await using mac = fakeMacBackend()`).
 *
 * @module
 */
import type { Backend } from "../../../ports/backend.ts";
import { createDarwinBackend } from "../mod.ts";
import { createFakeFrameworks, type FakeFrameworks, type FakeOptions } from "./mod.ts";

/** A back end on a fake Mac; disposing it closes the back end and asserts the fake is clean. */
export interface FakeMacBackend extends AsyncDisposable {
  backend: Backend;
  fake: FakeFrameworks;
}

/** Builds the darwin back end over a new fake Mac. */
export function fakeMacBackend(options: FakeOptions & { applicationDirs?: string[] } = {}): FakeMacBackend {
  const fake = createFakeFrameworks(options);
  const backend = createDarwinBackend({
    frameworks: fake.frameworks,
    apps: { applicationDirs: options.applicationDirs ?? [], killWaitMs: 50 },
    screencapture: fake.screencapture,
  });
  return {
    backend,
    fake,
    async [Symbol.asyncDispose]() {
      await backend.close();
      fake.assertClean();
    },
  };
}
