import assert from "node:assert/strict";
import { lazyFacility } from "./lazy_facility.ts";

interface Counter {
  add(by: number): Promise<number>;
  twice<T>(value: T): Promise<T[]>;
}

Deno.test("lazyFacility loads on the first call, once, and forwards every call with its arguments", async () => {
  let loads = 0;
  let total = 0;
  const lazy = lazyFacility<Counter>(() => {
    loads++;
    return Promise.resolve({
      add: (by: number) => Promise.resolve(total += by),
      twice: <T>(value: T) => Promise.resolve([value, value]),
    });
  });
  assert.equal(lazy.loaded(), null, "nothing loads before a call");
  assert.equal(loads, 0);
  const [a, b] = await Promise.all([lazy.facility.add(2), lazy.facility.add(3)]);
  assert.deepEqual([a + b, total, loads], [7, 5, 1], "two concurrent first calls load it once");
  assert.deepEqual(await lazy.facility.twice("x"), ["x", "x"]);
  assert.notEqual(lazy.loaded(), null);
  assert.equal(await Promise.resolve(lazy.facility).then(() => "awaitable"), "awaitable", "not a thenable");
});

Deno.test("lazyFacility passes a load failure to the caller and tries again on the next call", async () => {
  let attempts = 0;
  const lazy = lazyFacility<Counter>(() => {
    attempts++;
    if (attempts === 1) return Promise.reject(new Error("library missing"));
    return Promise.resolve({ add: (by: number) => Promise.resolve(by), twice: (v) => Promise.resolve([v]) });
  });
  await assert.rejects(lazy.facility.add(1), /library missing/);
  assert.equal(lazy.loaded(), null);
  assert.equal(await lazy.facility.add(4), 4);
  assert.equal(attempts, 2);
});
