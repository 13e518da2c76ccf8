/**
 * Who owns what in the browser layer. Runtime-wide: the browsers this runtime
 * launched (owned by the session that prepared them) and the existing-profile
 * endpoints a granted browser_prepare admitted. Per session: one DevTools
 * connection per endpoint, the bound targets and their tabs and snapshots, all
 * dropped when the session ends.
 *
 * @module
 */
import { CdpConnection } from "../../lib/devtools/cdp_client.ts";
import type { DevToolsEndpoint } from "./endpoint.ts";
import { type LaunchedBrowser, stopBrowser } from "./launch.ts";
import type { Tab } from "./tab.ts";

/** A browser window bound in one session. */
export interface BoundTarget {
  /** Session-scoped id, `b<8 hex>`. */
  readonly id: string;
  readonly pid: number;
  readonly windowId: number;
  /** Chromium's own window id (Browser.getWindowForTarget). */
  readonly browserWindowId: number;
  readonly endpoint: DevToolsEndpoint;
  readonly conn: CdpConnection;
  readonly tabs: Map<string, Tab>;
  /** tab id by CDP target id. */
  readonly tabIds: Map<string, string>;
}

/** A browser launched by browser_prepare. */
export interface PreparedBrowser {
  readonly browser: LaunchedBrowser;
  /** The session that prepared it; the browser closes when that session ends. */
  readonly ownerSession: string;
  readonly profile: { mode: "isolated_new" | "isolated_named"; name: string | null };
}

interface SessionBrowsers {
  connections: Map<string, CdpConnection>;
  targets: Map<string, BoundTarget>;
}

/** Browser state of the runtime. */
export class BrowserStore {
  /** Browsers launched by browser_prepare, by pid. */
  readonly prepared = new Map<number, PreparedBrowser>();
  /** Existing-profile endpoints admitted by a granted browser_prepare, by pid. */
  readonly admitted = new Map<number, DevToolsEndpoint>();
  readonly #sessions = new Map<string, SessionBrowsers>();
  /** Which tab (`<target>/<tab>`) each snapshot id belongs to. */
  readonly #snapshotOwners = new Map<number, string>();
  #nextSnapshot = 0;

  /** The endpoint the runtime may use for a browser process, or null. */
  endpointFor(pid: number): DevToolsEndpoint | null {
    return this.prepared.get(pid)?.browser.endpoint ?? this.admitted.get(pid) ?? null;
  }

  /** The session's connection to an endpoint, opened on first use (and again after it closed). */
  async connection(sessionId: string, endpoint: DevToolsEndpoint): Promise<CdpConnection> {
    const browsers = this.#of(sessionId);
    const existing = browsers.connections.get(endpoint.browserWsUrl);
    if (existing && !existing.closed) return existing;
    const conn = await CdpConnection.connect(endpoint.browserWsUrl);
    browsers.connections.set(endpoint.browserWsUrl, conn);
    return conn;
  }

  /** Registers a bound target in a session. */
  addTarget(sessionId: string, target: BoundTarget): void {
    this.#of(sessionId).targets.set(target.id, target);
  }

  /** A session's bound target, or undefined. */
  target(sessionId: string, targetId: string): BoundTarget | undefined {
    return this.#sessions.get(sessionId)?.targets.get(targetId);
  }

  /** Every bound target of a session. */
  targets(sessionId: string): BoundTarget[] {
    return [...(this.#sessions.get(sessionId)?.targets.values() ?? [])];
  }

  /** Mints a snapshot id for a tab. */
  nextSnapshotId(targetId: string, tabId: string): number {
    const id = ++this.#nextSnapshot;
    this.#snapshotOwners.set(id, `${targetId}/${tabId}`);
    return id;
  }

  /** The `<target>/<tab>` a snapshot id was minted for. */
  snapshotOwner(id: number): string | undefined {
    return this.#snapshotOwners.get(id);
  }

  /** Drops a session's bindings and connections; stops the browsers it prepared. */
  async dropSession(sessionId: string): Promise<void> {
    const browsers = this.#sessions.get(sessionId);
    this.#sessions.delete(sessionId);
    if (browsers) {
      for (const target of browsers.targets.values()) {
        for (const tabId of target.tabs.keys()) this.#forgetSnapshots(`${target.id}/${tabId}`);
      }
      for (const conn of browsers.connections.values()) await conn.close();
    }
    for (const [pid, prepared] of [...this.prepared]) {
      if (prepared.ownerSession !== sessionId) continue;
      this.prepared.delete(pid);
      await stopBrowser(prepared.browser);
    }
  }

  #forgetSnapshots(owner: string): void {
    for (const [id, value] of this.#snapshotOwners) if (value === owner) this.#snapshotOwners.delete(id);
  }

  #of(sessionId: string): SessionBrowsers {
    let browsers = this.#sessions.get(sessionId);
    if (!browsers) {
      browsers = { connections: new Map(), targets: new Map() };
      this.#sessions.set(sessionId, browsers);
    }
    return browsers;
  }
}
