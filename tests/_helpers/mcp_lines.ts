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

  /** The driver process's pid. */
  get pid(): number {
    return this.#child.pid;
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

/** True when no X server holds display `n` here (no lock file, no socket). */
function displayFree(n: number): boolean {
  for (const path of [`/tmp/.X${n}-lock`, `/tmp/.X11-unix/X${n}`]) {
    try {
      Deno.lstatSync(path);
      return false;
    } catch {
      // Absent.
    }
  }
  return true;
}

/** The pid in display `n`'s lock file (Xvfb writes its own), or null. */
function lockOwner(n: number): number | null {
  try {
    const pid = Number(Deno.readTextFileSync(`/tmp/.X${n}-lock`).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Starts Xvfb on `display`, or without one on a free number from 200 up (far above the
 * lowest free numbers that -displayfd servers, such as other test runs' desktops, take),
 * so that a test which stops its server and starts one again on the same number finds it
 * still free. Resolves once this Xvfb (the lock file's owner) answers on the display.
 *
 * @throws {Error} when the display is held by another X server or Xvfb does not start.
 */
export async function startXvfb(
  size: string,
  display?: number,
): Promise<{ child: Deno.ChildProcess; display: number }> {
  if (display === undefined) {
    const start = 200 + Math.floor(Math.random() * 600);
    for (let n = start; n < start + 200; n++) {
      if (!displayFree(n)) continue;
      try {
        return await startXvfb(size, n);
      } catch (error) {
        if (!(error instanceof DisplayTakenError)) throw error;
      }
    }
    throw new Error(`no free X display number from ${start} to ${start + 199}`);
  }
  const child = new Deno.Command("Xvfb", {
    args: [`:${display}`, "-screen", "0", `${size}x24`, "-nolisten", "tcp"],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  let exited = false;
  const status = child.status.then((s) => {
    exited = true;
    return s;
  });
  const deadline = Date.now() + 15_000;
  while (true) {
    if (exited) {
      await status;
      throw new DisplayTakenError(`Xvfb :${display} exited at start (held by pid ${lockOwner(display)})`);
    }
    const probe = await new Deno.Command("xdpyinfo", {
      args: ["-display", `:${display}`],
      stdout: "null",
      stderr: "null",
    }).output();
    if (probe.success && lockOwner(display) === child.pid) return { child, display };
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      await status;
      throw new Error(`Xvfb :${display} did not start`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Another X server holds the display number asked for. */
class DisplayTakenError extends Error {}
