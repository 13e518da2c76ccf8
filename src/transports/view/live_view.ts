/**
 * The live view at `/view` on the network listener's port: the page, its event stream (frames
 * when the screen changes, each call as it starts and ends, the stop switch's state) and the
 * Stop and Resume buttons' endpoints. Everything needs the listener's bearer token: the page
 * also accepts it once as `?token=` (a person opens that URL), the stream and the buttons only
 * as an `Authorization` header. No cookie is set, so no other origin can ride on a session; a
 * request that carries another origin's `Origin` is refused. The server's Host check (DNS
 * rebinding) runs before this.
 *
 * @module
 */
import type http from "node:http";
import type { ToolRegistry } from "../../kernel/registry.ts";
import type { InputStopState } from "../../kernel/input_stop.ts";
import type { BearerAuth } from "../network/auth.ts";
import { CallFeed, type ViewCall } from "./call_feed.ts";
import { type FeedEvent, FrameFeed } from "./frame_feed.ts";
import { unauthorizedPage, viewPage } from "./view_page.ts";

/** Viewers at once (each is one event stream); more get 429. */
export const MAX_VIEWERS = 8;
/** A comment line this often keeps idle proxies (an SSH forward too) from closing the stream. */
const KEEPALIVE_MS = 15_000;

/** One connected viewer. */
interface Viewer {
  res: http.ServerResponse;
  /** The socket is full: frames are skipped (never queued) until it drains; calls still go. */
  congested: boolean;
}

/** The view's endpoints and feeds. */
export class LiveView {
  readonly #viewers = new Set<Viewer>();
  readonly #frames: FrameFeed;
  readonly #calls: CallFeed;
  #keepalive: ReturnType<typeof setInterval> | null = null;
  #unlistenStop: (() => void) | null = null;

  constructor(readonly registry: ToolRegistry, readonly auth: BearerAuth) {
    this.#frames = new FrameFeed(registry.backend, (event) => this.#onFeed(event));
    this.#calls = new CallFeed({
      emit: (call) => this.#broadcast("call", call),
      callStarted: () => this.#frames.callStarted(),
      callEnded: () => this.#frames.callEnded(),
      thumbnail: (point) => this.#frames.thumbnail(point),
    });
  }

  /** Number of viewers connected now. */
  get viewerCount(): number {
    return this.#viewers.size;
  }

  /** True for the paths this serves. */
  static serves(path: string): boolean {
    return path === "/view" || path.startsWith("/view/");
  }

  /** Handles one request under /view. Never throws. */
  handle(req: http.IncomingMessage, res: http.ServerResponse, path: string): void {
    try {
      if (!sameOrigin(req)) return plain(res, 403, "Requests from another origin are refused");
      if (path === "/view" || path === "/view/") return this.#page(req, res);
      if (!this.auth.check(req.headers.authorization)) {
        res.setHeader("WWW-Authenticate", 'Bearer realm="cua-driver"');
        return plain(res, 401, "Authentication required: send Authorization: Bearer <token>");
      }
      if (path === "/view/events" && req.method === "GET") return this.#stream(req, res);
      if ((path === "/view/stop" || path === "/view/resume") && req.method === "POST") {
        return void this.#flip(res, path === "/view/stop");
      }
      if (path === "/view/events" || path === "/view/stop" || path === "/view/resume") {
        res.setHeader("Allow", path === "/view/events" ? "GET" : "POST");
        return plain(res, 405, `Wrong method for ${path}`);
      }
      plain(res, 404, `No such view resource: ${path}`);
    } catch (error) {
      if (!res.headersSent) plain(res, 500, `Internal error: ${(error as Error).message}`);
      else res.destroy();
    }
  }

  /** Ends every stream and stops the feeds (server shutdown). */
  close(): void {
    for (const viewer of [...this.#viewers]) viewer.res.end();
    this.#viewers.clear();
    this.#idle();
  }

  #page(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("Allow", "GET");
      return plain(res, 405, "Use GET /view");
    }
    const query = new URL(req.url ?? "/view", "http://view.invalid").searchParams.get("token");
    const allowed = this.auth.check(req.headers.authorization) ||
      (query !== null && this.auth.check(`Bearer ${query}`));
    const nonce = crypto.randomUUID().replaceAll("-", "");
    const html = allowed ? viewPage(nonce) : unauthorizedPage(nonce);
    res.writeHead(allowed ? 200 : 401, {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Length": Buffer.byteLength(html),
      ...pageHeaders(nonce),
    });
    res.end(req.method === "HEAD" ? undefined : html);
  }

  #stream(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (this.#viewers.size >= MAX_VIEWERS) {
      return plain(res, 429, `Already ${MAX_VIEWERS} viewers; close one first`);
    }
    res.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      // Frames must not wait in a proxy's buffer.
      "X-Accel-Buffering": "no",
    });
    const viewer: Viewer = { res, congested: false };
    res.on("drain", () => viewer.congested = false);
    const gone = () => {
      if (!this.#viewers.delete(viewer)) return;
      if (this.#viewers.size === 0) this.#idle();
    };
    req.socket.on("close", gone);
    res.on("close", gone);
    res.on("error", gone);
    const first = this.#viewers.size === 0;
    this.#viewers.add(viewer);
    if (first) this.#watch();
    write(viewer, "hello", {
      input: this.registry.state.inputStop.state,
      calls: this.#calls.recent,
      frame: this.#frames.lastFrame,
    });
  }

  async #flip(res: http.ServerResponse, stop: boolean): Promise<void> {
    try {
      const outcome = stop ? await this.registry.stopInput("view") : this.registry.resumeInput();
      json(res, 200, outcome);
    } catch (error) {
      json(res, 500, { error: (error as Error).message });
    }
  }

  /** The first viewer came: start the feeds. */
  #watch(): void {
    this.#frames.start();
    this.registry.state.callObservers.add(this.#calls);
    this.#unlistenStop = this.registry.state.inputStop.onChange((state) => this.#broadcast("input", state));
    this.#keepalive = setInterval(() => {
      for (const viewer of this.#viewers) viewer.res.write(": keepalive\n\n");
    }, KEEPALIVE_MS);
  }

  /** The last viewer left: nothing is captured or observed any more. */
  #idle(): void {
    this.#frames.stop();
    this.registry.state.callObservers.delete(this.#calls);
    this.#unlistenStop?.();
    this.#unlistenStop = null;
    if (this.#keepalive !== null) clearInterval(this.#keepalive);
    this.#keepalive = null;
  }

  #onFeed(event: FeedEvent): void {
    if (event.kind === "frame") {
      for (const viewer of this.#viewers) if (!viewer.congested) write(viewer, "frame", event.frame);
    } else {
      this.#broadcast("problem", { message: event.message });
    }
  }

  #broadcast(type: string, data: ViewCall | InputStopState | Record<string, unknown>): void {
    for (const viewer of this.#viewers) write(viewer, type, data);
  }
}

/** Writes one server-sent event; a full socket marks the viewer congested. */
function write(viewer: Viewer, type: string, data: unknown): void {
  const { res } = viewer;
  if (res.writableEnded || res.destroyed) return;
  if (!res.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`)) viewer.congested = true;
}

/** True without an Origin (navigation, same-origin GET) or with this listener's own origin. */
function sameOrigin(req: http.IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  return origin === `http://${req.headers.host}`;
}

/** Headers of the page: one script by nonce, images from data:/blob:, fetches to this origin only. */
function pageHeaders(nonce: string): Record<string, string> {
  return {
    "Content-Security-Policy": [
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      "style-src 'unsafe-inline'",
      "img-src data: blob:",
      "connect-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join("; "),
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
  };
}

function plain(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
  });
  res.end(text);
}

function json(res: http.ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
  });
  res.end(text);
}
