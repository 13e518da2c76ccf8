import assert from "node:assert/strict";
import { OversizedLine, readLines } from "./line_reader.ts";

function streamOf(...chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return ReadableStream.from(chunks.map((c) => typeof c === "string" ? encoder.encode(c) : c));
}

async function all(stream: ReadableStream<Uint8Array>, max?: number) {
  const lines: (string | OversizedLine)[] = [];
  for await (const line of readLines(stream, max)) lines.push(line);
  return lines;
}

Deno.test("readLines splits on newlines across chunks, trims, skips blank lines and keeps UTF-8 split mid-character", async () => {
  const euro = new TextEncoder().encode("€"); // 3 bytes, split across two chunks
  assert.deepEqual(
    await all(streamOf("a", "b\n\n  c  \r\n", euro.subarray(0, 1), euro.subarray(1), "\nlast")),
    ["ab", "c", "€", "last"],
  );
});

Deno.test("readLines replaces a line over the limit by OversizedLine and goes on with the next one", async () => {
  const lines = await all(streamOf("ok\n", "x".repeat(30), "y".repeat(30), "\nnext\n", "z".repeat(70)), 50);
  assert.equal(lines[0], "ok");
  assert.ok(lines[1] instanceof OversizedLine);
  assert.equal((lines[1] as OversizedLine).bytes, 60);
  assert.equal(lines[2], "next");
  assert.ok(lines[3] instanceof OversizedLine, "an unterminated oversized tail too");
});

Deno.test("readLines reads a 40 MB line arriving in 64 KiB chunks, and the line after it", async () => {
  // How long that takes (linear, not quadratic) is measured by scripts/bench_limits.ts.
  const chunk = new Uint8Array(64 * 1024).fill(0x78);
  const chunks = Array.from({ length: 640 }, () => chunk);
  const lines = await all(
    ReadableStream.from([...chunks, new Uint8Array([0x0a]), new TextEncoder().encode("after\n")]),
    64 * 1024 * 1024,
  );
  assert.equal((lines[0] as string).length, 640 * 64 * 1024);
  assert.equal(lines[1], "after");
});
