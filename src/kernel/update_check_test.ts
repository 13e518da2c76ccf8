import assert from "node:assert/strict";
import { join } from "node:path";
import { VERSION } from "../version.ts";
import { checkForUpdate, compareVersions, DEFAULT_UPDATE_URL, latestRelease } from "./update_check.ts";

/** Serves one JSON body on an ephemeral port and counts requests. */
function serveJson(body: unknown, status = 200) {
  let requests = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    requests++;
    return Response.json(body, { status });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/releases`,
    get requests() {
      return requests;
    },
    close: () => server.shutdown(),
  };
}

/** A TCP port that accepts connections and never answers. */
function blackhole() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  (async () => {
    for await (const conn of listener) held.push(conn);
  })().catch(() => {});
  return {
    url: `http://127.0.0.1:${listener.addr.port}/releases`,
    close() {
      for (const conn of held) conn.close();
      listener.close();
    },
  };
}

Deno.test("compareVersions orders numerically and puts a release above its pre-releases", () => {
  assert.equal(compareVersions("0.10.0", "0.9.9"), 1);
  assert.equal(compareVersions("1.0.0", "1.0.0"), 0);
  assert.equal(compareVersions("1.0.0-rc.1", "1.0.0"), -1);
  assert.equal(compareVersions("1.0.1", "1.0.0-rc.9"), 1);
});

Deno.test("latestRelease takes the newest stable driver tag and skips drafts and pre-releases", () => {
  const releases = [
    { tag_name: "agent-v9.0.0", html_url: "a" },
    { tag_name: "cua-driver-v0.21.0", html_url: "u21" },
    { tag_name: "cua-driver-v0.22.0-rc.1", prerelease: true, html_url: "rc" },
    { tag_name: "cua-driver-v0.20.3", html_url: "u20" },
    { tag_name: "cua-driver-v0.30.0", draft: true, html_url: "d" },
  ];
  assert.deepEqual(latestRelease(releases, "stable", true), { version: "0.21.0", url: "u21" });
  assert.deepEqual(latestRelease(releases, "nightly", true), { version: "0.22.0-rc.1", url: "rc" });
  assert.deepEqual(latestRelease(releases, "stable", false), { version: "9.0.0", url: "a" });
});

Deno.test("checkForUpdate compares with the newest release and caches the answer for 20 hours", async () => {
  const dir = await Deno.makeTempDir();
  const server = serveJson([{ tag_name: "v99.0.0", html_url: "https://example.test/r/99" }]);
  try {
    const cachePath = join(dir, "update-check.json");
    let clock = Date.parse("2026-01-01T00:00:00Z");
    const now = () => clock;
    const first = await checkForUpdate({ url: server.url, cachePath, now });
    assert.equal(first.latest_version, "99.0.0");
    assert.equal(first.update_available, true);
    assert.equal(first.status, "update_available");
    assert.equal(first.cache_hit, false);
    assert.equal(first.current_version, VERSION);
    assert.equal(first.release_notes_url, "https://example.test/r/99");
    assert.equal(first.checked_at, "2026-01-01T00:00:00.000Z");
    assert.equal(first.error, null);
    clock += 19 * 3600_000;
    const second = await checkForUpdate({ url: server.url, cachePath, now });
    assert.equal(second.cache_hit, true);
    assert.equal(second.checked_at, first.checked_at);
    assert.equal(server.requests, 1);
    clock += 2 * 3600_000;
    assert.equal((await checkForUpdate({ url: server.url, cachePath, now })).cache_hit, false);
    assert.equal((await checkForUpdate({ url: server.url, cachePath, now, noCache: true })).cache_hit, false);
    assert.equal(server.requests, 3);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("checkForUpdate says up_to_date for an older release and unknown for an HTTP error", async () => {
  const dir = await Deno.makeTempDir();
  const old = serveJson([{ tag_name: "v0.0.1" }]);
  const broken = serveJson({ message: "rate limited" }, 403);
  try {
    const answer = await checkForUpdate({ url: old.url, cachePath: join(dir, "a.json") });
    assert.equal(answer.status, "up_to_date");
    assert.equal(answer.update_available, false);
    const failed = await checkForUpdate({ url: broken.url, cachePath: join(dir, "b.json") });
    assert.equal(failed.status, "unknown");
    assert.equal(failed.update_available, null);
    assert.match(failed.error ?? "", /HTTP 403/);
    await assert.rejects(Deno.stat(join(dir, "b.json")), Deno.errors.NotFound); // failures are not cached
  } finally {
    await old.close();
    await broken.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("checkForUpdate gives up on a server that never answers within its budget", async () => {
  const dir = await Deno.makeTempDir();
  const hole = blackhole();
  try {
    const started = performance.now();
    const answer = await checkForUpdate({ url: hole.url, cachePath: join(dir, "c.json"), timeoutMs: 300 });
    const elapsed = performance.now() - started;
    assert.equal(answer.status, "unknown");
    assert.equal(answer.update_available, null);
    assert.match(answer.error ?? "", /within 300 ms/);
    // How soon after its budget it gives up is a timing goal: scripts/bench_timing.ts.
    assert.ok(elapsed >= 250, `gave up early after ${elapsed} ms`);
  } finally {
    hole.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("checkForUpdate defaults to the GitHub releases of trycua/cua", () => {
  assert.match(DEFAULT_UPDATE_URL, /^https:\/\/api\.github\.com\/repos\/trycua\/cua\/releases/);
});
