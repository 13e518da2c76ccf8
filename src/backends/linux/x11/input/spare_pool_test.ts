import assert from "node:assert/strict";
import { SparePool } from "./spare_pool.ts";

const OMEGA = 0x10003a9n, MU = 0x10003bcn, NICHI = 0x10065e5n;

Deno.test("SparePool.acquire binds free keycodes first and reuses a bound keysym", () => {
  const pool = new SparePool([200, 199]);
  assert.deepEqual(pool.acquire(OMEGA), { keycode: 200, bind: true, barrier: false });
  assert.deepEqual(pool.acquire(MU), { keycode: 199, bind: true, barrier: false });
  assert.deepEqual(pool.acquire(OMEGA), { keycode: 200, bind: false, barrier: false });
  assert.equal(pool.find(MU), 199);
  assert.equal(pool.binds, 2);
});

Deno.test("SparePool.acquire rebinds the least recently used keycode, asking for a barrier after a press", () => {
  const pool = new SparePool([200, 199]);
  pool.acquire(OMEGA);
  pool.acquire(MU);
  pool.pressed(200, true);
  pool.pressed(200, false);
  pool.acquire(MU); // 199 becomes the most recently used
  assert.deepEqual(pool.acquire(NICHI), { keycode: 200, bind: true, barrier: true }, "200 was pressed");
  assert.deepEqual([...pool.bindings()], [[199, MU], [200, NICHI]]);
  pool.barrierPassed();
  assert.deepEqual(
    pool.acquire(OMEGA),
    { keycode: 199, bind: true, barrier: false },
    "199 was never pressed",
  );
});

Deno.test("SparePool never rebinds a held keycode and runs out when all are held", () => {
  const pool = new SparePool([200]);
  pool.acquire(OMEGA);
  pool.pressed(200, true);
  assert.equal(pool.isHeld(200), true);
  assert.equal(pool.acquire(MU), null);
  assert.deepEqual(
    pool.acquire(OMEGA),
    { keycode: 200, bind: false, barrier: false },
    "the held keysym itself is fine",
  );
  pool.pressed(200, false);
  assert.deepEqual(pool.acquire(MU), { keycode: 200, bind: true, barrier: true });
});

Deno.test("SparePool.release clears what is not held, after the barrier needsBarrier asks for", () => {
  const pool = new SparePool([200, 199, 198]);
  pool.acquire(OMEGA);
  pool.acquire(MU);
  pool.acquire(NICHI);
  assert.equal(pool.needsBarrier(), false, "nothing pressed yet");
  pool.pressed(200, true);
  pool.pressed(200, false);
  pool.pressed(199, true); // still held
  assert.equal(pool.needsBarrier(), true);
  pool.barrierPassed();
  assert.equal(pool.needsBarrier(), false);
  assert.deepEqual(pool.release().sort(), [198, 200]);
  assert.deepEqual([...pool.bindings()], [[199, MU]], "the held key keeps its binding");
  pool.pressed(199, false);
  assert.deepEqual(pool.release(), [199]);
  assert.equal(pool.bindings().size, 0);
});

Deno.test("SparePool with no keycodes hands out nothing", () => {
  const pool = new SparePool([]);
  assert.equal(pool.size, 0);
  assert.equal(pool.acquire(OMEGA), null);
  assert.deepEqual(pool.release(), []);
});
