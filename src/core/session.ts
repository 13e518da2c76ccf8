/**
 * Lifecycle sessions: who a call belongs to (never what it may do).
 *
 * @module
 */

/** Transport kinds that own session leases. */
export type TransportKind = "cli" | "mcp_stdio" | "mcp_http" | "daemon" | "grpc";

/** One lifecycle session: the implicit one of a connection, or a named label. */
export interface Session {
  /** Runtime-internal id (lease plus label); never shown to agents. */
  readonly id: string;
  /** Public label, or null for the connection's implicit session. */
  readonly label: string | null;
  /** The connection lease that owns it. */
  readonly lease: string;
  readonly transport: TransportKind;
  readonly startedAt: number;
  lastUsedAt: number;
}

/** Creates sessions on first use and hands the same object back afterwards. */
export class SessionManager {
  readonly #sessions = new Map<string, Session>();

  /** Returns the session for a lease and optional label, creating it on first use. */
  resolve(lease: string, transport: TransportKind, label: string | null | undefined): Session {
    const normalized = label === undefined || label === null || label === "" ? null : label;
    const id = normalized === null ? lease : `${lease}#${normalized}`;
    let session = this.#sessions.get(id);
    if (!session) {
      const now = Date.now();
      session = { id, label: normalized, lease, transport, startedAt: now, lastUsedAt: now };
      this.#sessions.set(id, session);
    }
    session.lastUsedAt = Date.now();
    return session;
  }

  /** Forgets every session of a lease (its connection closed). */
  endLease(lease: string): Session[] {
    const ended: Session[] = [];
    for (const [id, session] of this.#sessions) {
      if (session.lease === lease) {
        this.#sessions.delete(id);
        ended.push(session);
      }
    }
    return ended;
  }

  /** Number of live sessions. */
  get size(): number {
    return this.#sessions.size;
  }
}
