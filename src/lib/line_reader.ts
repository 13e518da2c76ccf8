/**
 * Newline-delimited input (the daemon socket, MCP over stdio), read in time linear in its
 * size: each chunk is scanned once for newlines and a line is joined once, when it ends.
 * A line longer than the limit is not kept: its bytes are skipped up to the next newline
 * and an {@linkcode OversizedLine} stands in for it, so one client cannot make the driver
 * buffer (or rescan) an unbounded line.
 *
 * @module
 */

/** Longest request line the driver reads (the MCP HTTP body limit too). */
export const MAX_REQUEST_LINE_BYTES = 16 * 1024 * 1024;

/** A line that was too long to read; only its size (so far) is known. */
export class OversizedLine {
  constructor(readonly bytes: number, readonly limit: number) {}
}

const NEWLINE = 0x0a;

/**
 * Splits a byte stream into trimmed, non-empty lines.
 *
 * @param maxBytes Longest line kept, in bytes (UTF-8).
 */
export async function* readLines(
  stream: ReadableStream<Uint8Array>,
  maxBytes = MAX_REQUEST_LINE_BYTES,
): AsyncGenerator<string | OversizedLine> {
  let decoder = new TextDecoder();
  let parts: string[] = [];
  let length = 0;
  let oversized = false;
  for await (const chunk of stream) {
    let start = 0;
    while (start <= chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline < 0 ? chunk.length : newline;
      length += end - start;
      if (!oversized && length > maxBytes) {
        oversized = true;
        parts = [];
      }
      if (!oversized && end > start) parts.push(decoder.decode(chunk.subarray(start, end), { stream: true }));
      if (newline < 0) break;
      if (oversized) {
        yield new OversizedLine(length, maxBytes);
      } else {
        parts.push(decoder.decode());
        const line = parts.join("").trim();
        if (line) yield line;
      }
      decoder = new TextDecoder();
      parts = [];
      length = 0;
      oversized = false;
      start = newline + 1;
    }
  }
  if (oversized) {
    yield new OversizedLine(length, maxBytes);
  } else {
    parts.push(decoder.decode());
    const line = parts.join("").trim();
    if (line) yield line;
  }
}
