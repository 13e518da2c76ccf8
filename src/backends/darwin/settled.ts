/**
 * Runs a synchronous body as a Promise: a throw becomes a rejection. Framework calls
 * are synchronous, but the back-end interface is asynchronous, and callers pass its
 * Promises to `Promise.allSettled` or `.catch()`, where a synchronous throw would escape.
 *
 * @module
 */

/** `body()` as a Promise that rejects instead of throwing. */
export function settled<T>(body: () => T): Promise<T> {
  try {
    return Promise.resolve(body());
  } catch (error) {
    return Promise.reject(error);
  }
}
