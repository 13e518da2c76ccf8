/**
 * Process-wide resources that a runtime's close releases (the PNG encoder Workers), registered
 * by the modules that create them, so that the runtime need not load those modules just to
 * close what was never opened.
 *
 * @module
 */

const releasers = new Set<() => void>();

/** Registers `release` to run at the next {@linkcode releaseProcessResources} (once per function). */
export function onRelease(release: () => void): void {
  releasers.add(release);
}

/** Runs and forgets every registered releaser; one that throws does not stop the others. */
export function releaseProcessResources(): void {
  const pending = [...releasers];
  releasers.clear();
  for (const release of pending) {
    try {
      release();
    } catch {
      // Releasing is best effort: the process is closing its runtime.
    }
  }
}
