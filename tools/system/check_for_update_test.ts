import assert from "node:assert/strict";
import { systemKit } from "./_test_kit.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

/** Runs `fn` with environment variables set, restoring them afterwards. */
async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, Deno.env.get(k)]));
  for (const [k, v] of Object.entries(vars)) Deno.env.set(k, v);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
  }
}

Deno.test("check_for_update answers unknown within 2.2 s when the release server never answers", async () => {
  await using kit = systemKit();
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  (async () => {
    for await (const conn of listener) held.push(conn);
  })().catch(() => {});
  try {
    await withEnv({
      CUA_DRIVER_UPDATE_URL: `http://127.0.0.1:${listener.addr.port}/releases`,
      XDG_CACHE_HOME: kit.dir,
    }, async () => {
      const started = performance.now();
      const result = await kit.call("check_for_update");
      const elapsed = performance.now() - started;
      assert.equal(result.isError, undefined, JSON.stringify(result));
      const out = result.structuredContent as Any;
      assert.equal(out.status, "unknown");
      assert.equal(out.update_available, null);
      assert.equal(out.latest_version, null);
      assert.equal(out.source, "github_releases");
      assert.equal(out.current_channel, "stable");
      assert.equal(out.selected_channel, "stable");
      assert.equal(out.cache_hit, false);
      assert.match(out.error, /within 2000 ms/);
      // How soon after its budget it gives up is a timing goal: scripts/bench_timing.ts.
      assert.ok(elapsed >= 1900, `gave up early after ${elapsed} ms`);
    });
  } finally {
    for (const conn of held) conn.close();
    listener.close();
  }
});
