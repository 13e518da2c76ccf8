/**
 * One bound tab: its flat CDP session, the document it was bound or snapshotted
 * on (main-frame loader and URL), its open JavaScript dialog, and the checks every
 * call runs before touching it (closed, dialog open, navigated away).
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import { CdpConnection, CdpError } from "../../lib/devtools/cdp_client.ts";
import { IsolatedWorld } from "./isolated_world.ts";
import type { Snapshot } from "./snapshot.ts";

/** How long a liveness probe waits for a tab before asking the browser whether it still exists. */
const LIVENESS_TIMEOUT_MS = 2_000;

/** A page-owned JavaScript dialog waiting for an answer. */
export interface DialogInfo {
  dialog_id: string;
  type: "alert" | "confirm" | "prompt" | "beforeunload";
  message: string;
  default_prompt: string;
  url: string;
}

/** The document a tab is bound to. */
export interface Baseline {
  loaderId: string;
  url: string;
}

let dialogCounter = 0;

/** URL without its fragment: a hash change is not a new document. */
function withoutFragment(url: string): string {
  const hash = url.indexOf("#");
  return hash < 0 ? url : url.slice(0, hash);
}

/** A tab of a bound target, attached over a flat CDP session. */
export class Tab {
  /** The document the caller last saw (bind, snapshot or our own navigation). */
  baseline: Baseline;
  /** The latest snapshot; its refs are the only live ones. */
  snapshot: Snapshot | null = null;
  dialog: DialogInfo | null = null;
  /** How the last dialog was closed, for browser_dialog to report. */
  lastDialogResult: { accepted: boolean; user_input: string } | null = null;
  closed = false;
  /** The driver's isolated world in the current document (holds the snapshot's elements). */
  readonly world: IsolatedWorld = new IsolatedWorld(this);
  readonly #off: () => void;

  private constructor(
    readonly id: string,
    readonly cdpTargetId: string,
    readonly conn: CdpConnection,
    readonly sessionId: string,
    baseline: Baseline,
  ) {
    this.baseline = baseline;
    this.#off = conn.on((event) => {
      if (event.method === "Target.detachedFromTarget" && event.params.sessionId === sessionId) {
        this.closed = true;
      }
      if (event.sessionId !== sessionId) return;
      if (event.method === "Page.javascriptDialogOpening") {
        this.dialog = {
          dialog_id: `d${++dialogCounter}`,
          type: event.params.type,
          message: event.params.message ?? "",
          default_prompt: event.params.defaultPrompt ?? "",
          url: event.params.url ?? "",
        };
      } else if (event.method === "Page.javascriptDialogClosed") {
        this.lastDialogResult = {
          accepted: Boolean(event.params.result),
          user_input: event.params.userInput ?? "",
        };
        this.dialog = null;
      }
    });
  }

  /**
   * Attaches to a page target and records the document it shows.
   *
   * @throws {CdpError} when the target is gone.
   */
  static async attach(conn: CdpConnection, cdpTargetId: string, id: string): Promise<Tab> {
    const { sessionId } = await conn.send("Target.attachToTarget", { targetId: cdpTargetId, flatten: true });
    const send = (method: string, params: Record<string, unknown> = {}) =>
      conn.send(method, params, { sessionId });
    await send("Page.enable");
    const { frameTree } = await send("Page.getFrameTree");
    return new Tab(id, cdpTargetId, conn, sessionId, {
      loaderId: frameTree.frame.loaderId,
      url: frameTree.frame.url,
    });
  }

  /**
   * Sends a command in this tab's session. A vanished tab becomes `browser_tab_not_found`.
   *
   * @throws {DriverError} `browser_tab_not_found`; other CDP errors pass through.
   */
  // deno-lint-ignore no-explicit-any
  async send<T = any>(method: string, params: Record<string, unknown> = {}, timeoutMs?: number): Promise<T> {
    try {
      return await this.conn.send<T>(method, params, { sessionId: this.sessionId, timeoutMs });
    } catch (error) {
      if (error instanceof CdpError && error.targetGone) {
        this.closed = true;
        throw this.#notFound();
      }
      throw error;
    }
  }

  /** The main frame's loader and URL now. */
  async current(): Promise<Baseline> {
    const { frameTree } = await this.send("Page.getFrameTree");
    return { loaderId: frameTree.frame.loaderId, url: frameTree.frame.url };
  }

  /**
   * The checks before any call that reads or acts on this tab.
   *
   * @param options.allowDialog let the call run while a dialog is open (browser_dialog).
   * @param options.allowNavigated let the call run on a new document (a snapshot re-binds it).
   * @throws {DriverError} `browser_tab_not_found` (closed), `browser_action_unavailable`
   *   (a dialog blocks the page), `browser_binding_stale` (navigated away).
   */
  async requireLive(options: { allowDialog?: boolean; allowNavigated?: boolean } = {}): Promise<Baseline> {
    if (this.closed) throw this.#notFound();
    // The target's liveness and its current document are asked together (one round trip).
    // While a dialog is up the renderer answers nothing (not even Page.getFrameTree), so the
    // document is not asked then: the dialog itself shows the document is still there.
    const alive = this.conn.send("Target.getTargetInfo", { targetId: this.cdpTargetId }).catch((error) => {
      if (error instanceof CdpError && error.targetGone) this.closed = true;
    });
    const current = this.dialog ? null : this.#currentOrGone();
    current?.catch(() => {}); // awaited below unless an earlier check throws
    await alive;
    if (this.closed) throw this.#notFound();
    if (this.dialog && !options.allowDialog) {
      throw new DriverError(
        "browser_action_unavailable",
        `A ${this.dialog.type} dialog is open in tab ${this.id} and blocks the page`,
        { dialog: this.dialog, hint: "answer it with browser_dialog (accept or dismiss) first" },
      );
    }
    if (this.dialog) return this.baseline;
    const now = await (current ?? this.#currentOrGone());
    if (!options.allowNavigated && this.navigatedFrom(now)) {
      throw new DriverError(
        "browser_binding_stale",
        `Tab ${this.id} navigated away from ${this.baseline.url} (now ${now.url}); nothing was done`,
        {
          tab_id: this.id,
          bound_url: this.baseline.url,
          current_url: now.url,
          hint:
            "call get_browser_state with target_id and tab_id to snapshot the new page, then act on its refs",
        },
      );
    }
    return now;
  }

  /**
   * The current document, short-waited: a tab closing while we ask never answers,
   * so a silent session is checked against the browser's own target list.
   */
  async #currentOrGone(): Promise<Baseline> {
    try {
      const { frameTree } = await this.send("Page.getFrameTree", {}, LIVENESS_TIMEOUT_MS);
      return { loaderId: frameTree.frame.loaderId, url: frameTree.frame.url };
    } catch (error) {
      if (!(error instanceof CdpError) || error.code !== -1) throw error;
      const { targetInfos } = await this.conn.send("Target.getTargets").catch(() => ({ targetInfos: [] }));
      if (!(targetInfos as { targetId: string }[]).some((t) => t.targetId === this.cdpTargetId)) {
        this.closed = true;
        throw this.#notFound();
      }
      throw new DriverError("browser_action_unavailable", `Tab ${this.id} does not answer`, {
        tab_id: this.id,
        hint: "the page may be busy or hung; retry, or snapshot it again with get_browser_state",
      });
    }
  }

  /** True when `now` is another document than the baseline. */
  navigatedFrom(now: Baseline): boolean {
    return now.loaderId !== this.baseline.loaderId ||
      withoutFragment(now.url) !== withoutFragment(this.baseline.url);
  }

  /** Detaches from the tab (the tab itself stays open). */
  async detach(): Promise<void> {
    this.#off();
    if (this.closed || this.conn.closed) return;
    await this.conn.send("Target.detachFromTarget", { sessionId: this.sessionId }).catch(() => {});
  }

  #notFound(): DriverError {
    return new DriverError("browser_tab_not_found", `Tab ${this.id} is closed`, {
      tab_id: this.id,
      hint: "call get_browser_state with target_id and tab_id of a listed tab, or bind the window again",
    });
  }
}
