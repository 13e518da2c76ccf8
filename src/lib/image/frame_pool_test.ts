import assert from "node:assert/strict";
import { FramePool } from "./frame_pool.ts";

const frame = (bytes: number) => ({ width: 1, height: bytes / 4, words: new Uint32Array(bytes / 4) });

Deno.test("FramePool hands back a given frame's buffer once, and keeps no more than two screens' worth", () => {
  const pool = new FramePool();
  assert.equal(pool.take(), undefined);
  const a = frame(64);
  pool.give(a);
  pool.give(a);
  assert.equal(pool.size, 1, "the same frame twice is kept once");
  const taken = pool.take()!;
  assert.equal(taken.buffer, a.words.buffer);
  assert.equal(taken.length, 64);
  assert.equal(pool.take(), undefined);
  pool.give(null);
  const screen = 1920 * 1080 * 4;
  pool.give(frame(screen));
  pool.give(frame(screen));
  pool.give(frame(screen));
  assert.equal(pool.size, 2);
});
