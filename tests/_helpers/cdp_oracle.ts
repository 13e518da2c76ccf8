/**
 * An independent view of a browser for the tests: its own raw WebSocket per call to
 * the DevTools endpoint (not the driver's CDP client), to read page state back and to
 * open or close tabs behind the driver's back.
 *
 * @module
 */

// deno-lint-ignore no-explicit-any
type Json = any;

async function rpc(wsUrl: string, method: string, params: Record<string, unknown> = {}): Promise<Json> {
  const socket = new WebSocket(wsUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  try {
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${method}: no answer`)), 10_000);
      socket.onmessage = (message) => {
        const data = JSON.parse(String(message.data));
        if (data.id !== 1) return;
        clearTimeout(timer);
        if (data.error) reject(new Error(`${method}: ${data.error.message}`));
        else resolve(data.result);
      };
      socket.send(JSON.stringify({ id: 1, method, params }));
    });
  } finally {
    const closed = new Promise((resolve) => (socket.onclose = resolve));
    socket.close();
    await closed;
  }
}

/** Page targets of the browser on `port`. */
export async function pages(
  port: number,
): Promise<{ id: string; url: string; webSocketDebuggerUrl: string }[]> {
  const list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json() as Json[];
  return list.filter((t) => t.type === "page");
}

/** Evaluates an expression in the page whose URL contains `urlPart`, by value. */
export async function evalIn(port: number, urlPart: string, expression: string): Promise<Json> {
  const page = (await pages(port)).find((p) => p.url.includes(urlPart));
  if (!page) {
    throw new Error(`no page with ${urlPart} in ${(await pages(port)).map((p) => p.url).join(", ")}`);
  }
  const result = await rpc(page.webSocketDebuggerUrl, "Runtime.evaluate", {
    expression,
    returnByValue: true,
  });
  return result.result.value;
}

/** Evaluates an expression, by value, in the page target `targetId` (from {@linkcode openTab}). */
export async function evalInTarget(port: number, targetId: string, expression: string): Promise<Json> {
  const page = (await pages(port)).find((p) => p.id === targetId);
  if (!page) throw new Error(`no page target ${targetId}`);
  const result = await rpc(page.webSocketDebuggerUrl, "Runtime.evaluate", {
    expression,
    returnByValue: true,
  });
  return result.result.value;
}

/** The browser-level WebSocket URL. */
async function browserUrl(port: number): Promise<string> {
  return (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()).webSocketDebuggerUrl;
}

/** Opens a new tab in the browser's existing window; returns its CDP target id. */
export async function openTab(port: number, url: string): Promise<string> {
  return (await rpc(await browserUrl(port), "Target.createTarget", { url, newWindow: false })).targetId;
}

/** Closes a tab by CDP target id. */
export async function closeTab(port: number, targetId: string): Promise<void> {
  await rpc(await browserUrl(port), "Target.closeTarget", { targetId });
}

/** A PNG screenshot of the page whose URL contains `urlPart` (Page.captureScreenshot). */
export async function screenshotOf(port: number, urlPart: string): Promise<Uint8Array> {
  const page = (await pages(port)).find((p) => p.url.includes(urlPart));
  if (!page) throw new Error(`no page with ${urlPart}`);
  const result = await rpc(page.webSocketDebuggerUrl, "Page.captureScreenshot", { format: "png" });
  return Uint8Array.from(atob(result.data), (c) => c.charCodeAt(0));
}
