/**
 * One driver per test file, in-process: the same registry `cua-driver mcp` and the CLI
 * dispatch through, on the shared test desktop (`--desktop system`, standard mode).
 *
 * @module
 */
import assert from "node:assert/strict";
import { fromBase64, type ToolResult } from "../../src/kernel/result.ts";
import { decodePng } from "../../src/lib/image/png.ts";
import type { RawImage } from "../../src/ports/screen.ts";
import { startRuntime } from "../../src/runtime.ts";
import type { ToolListing } from "../../src/kernel/registry.ts";
import type { AnyTool } from "../../src/kernel/tool.ts";
import type { ListingOptions } from "../../src/kernel/tool_listing.ts";

/** Structured output of a tool call, loosely typed for tests. */
// deno-lint-ignore no-explicit-any
export type Structured = Record<string, any>;

/** A running in-process driver. */
export interface TestDriver extends AsyncDisposable {
  /**
   * Calls a tool the way a CLI user does (one lease; `session` picks a labelled session),
   * aborted after `timeoutMs` (20 s unless given).
   */
  call(name: string, args?: unknown, timeoutMs?: number): Promise<ToolResult>;
  /** Calls a tool, asserts it succeeded and returns its structured output. */
  ok(name: string, args?: unknown): Promise<Structured>;
  /** Calls a tool, asserts it failed with `code` and returns the error envelope. */
  fails(name: string, args: unknown, code: string): Promise<Structured>;
  close(): Promise<void>;
}

/**
 * Starts the driver on the desktop named by DISPLAY, with a private config directory so a
 * developer's `~/.cua-driver/config.json` cannot change what the tests see; standard
 * permission mode unless `options.permissionMode` says otherwise; `tools` and `listing` choose
 * another tool set (a vocabulary profile's).
 */
export async function startTestDriver(
  options: {
    permissionMode?: "standard" | "unrestricted";
    tools?: readonly AnyTool[];
    listing?: ListingOptions;
  } = {},
): Promise<TestDriver & { list(): ToolListing[] }> {
  const configDir = await Deno.makeTempDir({ prefix: "cua-test-config-" });
  Deno.env.set("CUA_DRIVER_CONFIG_DIR", configDir);
  const { permissionMode, ...rest } = options;
  const runtime = await startRuntime({
    desktop: "system",
    permissionMode: permissionMode ?? "standard",
    ...rest,
  });
  const lease = `test-${crypto.randomUUID()}`;
  const call = (name: string, args: unknown = {}, timeoutMs = 20_000) =>
    runtime.registry.call(name, args, { lease, transport: "cli", timeoutMs });
  let closing: Promise<void> | null = null;
  const close = () =>
    closing ??= runtime.close().finally(() => Deno.remove(configDir, { recursive: true }).catch(() => {}));
  return {
    call,
    list: () => runtime.registry.list(),
    async ok(name, args = {}) {
      const result = await call(name, args);
      assert.equal(result.isError, undefined, `${name} failed: ${describeResult(result)}`);
      return (result.structuredContent ?? {}) as Structured;
    },
    async fails(name, args, code) {
      const result = await call(name, args);
      assert.equal(result.isError, true, `${name} should fail with ${code}: ${describeResult(result)}`);
      const envelope = (result.structuredContent ?? {}) as Structured;
      assert.equal(envelope.code, code, `${name}: ${describeResult(result)}`);
      assert.equal(typeof envelope.message, "string");
      return envelope;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** The first 600 characters of a result's text, for assertion messages. */
export function describeResult(result: ToolResult): string {
  const text = result.content.map((part) => part.type === "text" ? part.text : `[${part.mimeType}]`).join(
    " ",
  );
  return text.slice(0, 600);
}

/** The bytes of the result's only image part of `mimeType`. */
export function imageBytes(result: ToolResult, mimeType: string): Uint8Array {
  const images = result.content.filter((part) => part.type === "image");
  assert.equal(images.length, 1, `one image part: ${describeResult(result)}`);
  const image = images[0];
  assert.ok(image.type === "image");
  assert.equal(image.mimeType, mimeType);
  return fromBase64(image.data);
}

/** Decodes the result's PNG image part. */
export function pngOf(result: ToolResult): RawImage {
  return decodePng(imageBytes(result, "image/png"));
}
