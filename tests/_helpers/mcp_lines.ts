/**
 * Test helpers for talking to a `cua-driver mcp` subprocess one raw JSON-RPC line at a
 * time, and for starting bare X servers.
 *
 * @module
 */
import assert from "node:assert/strict";
import { driverArgs } from "./driver.ts";

// deno-lint-ignore no-explicit-any
export type Json = any;

/** A `cua-driver mcp` subprocess spoken to one line at a time. */
export class McpLines implements AsyncDisposable {
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #lines: ReadableStreamDefaultReader<string>;
  readonly #stderr: Promise<string>;
  #buffer = "";
  #id = 0;
  #closed: Promise<{ code: number; stderr: string }> | null = null;

  constructor(env: Record<string, string>, args: readonly string[] = ["--desktop", "system"]) {
    this.#child = new Deno.Command(Deno.execPath(), {
      args: driverArgs("mcp", ...args),
      env: { DENO_NO_PACKAGE_JSON: "1", ...env },
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    this.#lines = this.#child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    this.#stderr = new Response(this.#child.stderr).text();
  }

  /** Sends one raw line (bytes or text) and returns the next response. */
  async raw(line: string | Uint8Array): Promise<Json> {
    const bytes = typeof line === "string" ? new TextEncoder().encode(line) : line;
    await this.#writer.write(new Uint8Array([...bytes, 0x0a]));
    return await this.#next();
  }

  /** Sends a request and returns its response. */
  async request(method: string, params?: unknown): Promise<Json> {
    const id = ++this.#id;
    const response = await this.raw(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    assert.equal(response.id, id, `response to request ${id}: ${JSON.stringify(response).slice(0, 300)}`);
    return response;
  }

  async notify(method: string): Promise<void> {
    await this.#writer.write(new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", method }) + "\n"));
  }

  /** tools/call; returns the CallTool result. */
  async call(name: string, args?: unknown): Promise<Json> {
    const response = await this.request("tools/call", { name, arguments: args });
    assert.ok(response.result, `tools/call ${name} has a result: ${JSON.stringify(response).slice(0, 300)}`);
    return response.result;
  }

  /** tools/call that must fail with `code`; returns the envelope. */
  async fails(name: string, args: unknown, code: string): Promise<Json> {
    const result = await this.call(name, args);
    assert.equal(result.isError, true, `${name} fails: ${JSON.stringify(result).slice(0, 300)}`);
    assert.equal(result.structuredContent.code, code, JSON.stringify(result.structuredContent));
    assert.ok(result.structuredContent.message, "a message");
    assert.ok(result.content[0].text.length > 0, "a text part for clients without structured content");
    return result.structuredContent;
  }

  async initialize(): Promise<void> {
    const init = await this.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "bad-input-test", version: "0" },
    });
    assert.equal(init.result.serverInfo.name, "cua-driver");
    await this.notify("notifications/initialized");
  }

  async #next(): Promise<Json> {
    while (true) {
      const newline = this.#buffer.indexOf("\n");
      if (newline >= 0) {
        const line = this.#buffer.slice(0, newline);
        this.#buffer = this.#buffer.slice(newline + 1);
        return JSON.parse(line);
      }
      const { value, done } = await this.#lines.read();
      if (done) throw new Error(`the driver closed stdout; stderr:\n${await this.#stderr}`);
      this.#buffer += value;
    }
  }

  /** Closes stdin and waits for the process; returns its exit code and stderr. */
  close(): Promise<{ code: number; stderr: string }> {
    this.#closed ??= (async () => {
      await this.#writer.close().catch(() => {});
      const status = await this.#child.status;
      await this.#lines.cancel().catch(() => {});
      return { code: status.code, stderr: await this.#stderr };
    })();
    return this.#closed;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

/** Starts Xvfb; without a display number it picks a free one (-displayfd). */
export async function startXvfb(
  size: string,
  display?: number,
): Promise<{ child: Deno.ChildProcess; display: number }> {
  const args = [
    display === undefined ? "-displayfd" : `:${display}`,
    ...(display === undefined ? ["1"] : []),
  ];
  const child = new Deno.Command("Xvfb", {
    args: [...args, "-screen", "0", `${size}x24`, "-nolisten", "tcp"],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  if (display === undefined) {
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error("Xvfb exited before printing its display number");
      text += value;
    }
    await reader.cancel();
    return { child, display: Number(text.trim()) };
  }
  await child.stdout.cancel();
  const deadline = Date.now() + 5_000;
  while (true) {
    const probe = await new Deno.Command("xdpyinfo", {
      args: ["-display", `:${display}`],
      stdout: "null",
      stderr: "null",
    })
      .output();
    if (probe.success) return { child, display };
    if (Date.now() > deadline) throw new Error(`Xvfb :${display} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
