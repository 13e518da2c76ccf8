/**
 * Lifecycle sessions: who a call belongs to (never what it may do).
 *
 * Each transport connection holds a lease. A call without a label uses the
 * lease's implicit session; a label names a session owned by the lease that
 * first used it. Sessions end on end_session, on idle expiry, or when their
 * lease closes; each end runs every cleanup hook exactly once. An ended label
 * refuses calls with `session_ended` until start_session revives it
 * (contract.md §4).
 *
 * @module
 */
import { abortReason } from "./call_abort.ts";
import { DriverError } from "../ports/errors.ts";

/** Transport kinds that own session leases. */
export type TransportKind = "cli" | "mcp_stdio" | "mcp_http" | "daemon" | "grpc";

/** Why a session ended. */
export type EndReason = "end_session" | "idle_timeout" | "lease_closed" | "process_exit";

/** One lifecycle session. */
export interface Session {
  /** Runtime-internal id; never shown to agents. */
  readonly id: string;
  /** Public label, or null for the connection's implicit session. */
  readonly label: string | null;
  /** The connection lease that owns it. */
  readonly lease: string;
  readonly transport: TransportKind;
  readonly startedAt: number;
  lastUsedAt: number;
  state: "active" | "ending" | "ended";
  /** Calls running in the session; a session with calls in flight is never evicted. */
  inFlight: number;
  /** Aborted when the session ends (or starts ending): its calls in flight stop their input. */
  readonly ending?: AbortController;
}

/** A cleanup hook; errors are collected, not thrown. */
export type CleanupHook = (session: Session, reason: EndReason) => void | Promise<void>;

/** Outcome of ending a session. */
export interface EndResult {
  ended: boolean;
  /** The end waits for calls in flight (they finish first). */
  pending: boolean;
  failedHooks: string[];
}

/** How long end_session waits for a session's aborted calls to return before it answers "pending". */
const END_WAIT_MS = 3000;

/** Default idle time before a session ends: five minutes. */
export const DEFAULT_IDLE_TTL_MS = 5 * 60_000;
const SWEEP_INTERVAL_MS = 30_000;

function normalizeLabel(label: string | null | undefined): string | null {
  if (label === undefined || label === null) return null;
  const trimmed = label.trim();
  return trimmed === "" || trimmed === "default" ? null : trimmed;
}

/** Creates, tracks, expires and ends sessions. */
export class SessionManager {
  readonly #sessions = new Map<string, Session>();
  /** Ended labels and the lease that owned them. */
  readonly #tombstones = new Map<string, string>();
  readonly #hooks = new Map<string, CleanupHook>();
  #sweeper: ReturnType<typeof setInterval> | null = null;
  /** Resolvers of ends waiting for a session's aborted calls to return. */
  readonly #drained = new Map<Session, (failedHooks: string[]) => void>();

  constructor(readonly idleTtlMs: number = idleTtlFromEnv()) {}

  /** Registers a cleanup hook run once per ended session. */
  addCleanupHook(name: string, hook: CleanupHook): void {
    this.#hooks.set(name, hook);
  }

  /**
   * The session a call runs in, created on first use.
   *
   * @throws {DriverError} `session_ended` for an ended label; `session_unavailable`
   *   for a label another connection owns.
   */
  resolve(lease: string, transport: TransportKind, label?: string | null): Session {
    const name = normalizeLabel(label);
    const key = name === null ? `lease:${lease}` : `label:${name}`;
    const existing = this.#sessions.get(key);
    if (existing) {
      if (existing.lease !== lease) throw unavailable(name!);
      existing.lastUsedAt = Date.now();
      return existing;
    }
    if (name !== null) {
      const owner = this.#tombstones.get(name);
      if (owner !== undefined) {
        if (owner !== lease) throw unavailable(name);
        throw new DriverError("session_ended", `Session "${name}" has ended`, {
          session: name,
          hint: "call start_session with this label to start it again",
        });
      }
    }
    return this.#create(key, lease, transport, name);
  }

  /** Starts (or revives) a session; returns it and whether it was revived. */
  start(
    lease: string,
    transport: TransportKind,
    label?: string | null,
  ): { session: Session; revived: boolean } {
    const name = normalizeLabel(label);
    let revived = false;
    if (name !== null && this.#tombstones.has(name)) {
      if (this.#tombstones.get(name) !== lease) throw unavailable(name);
      this.#tombstones.delete(name);
      revived = true;
    }
    return { session: this.resolve(lease, transport, name), revived };
  }

  /** A live session of this lease, without creating one. */
  peek(lease: string, label?: string | null): Session | undefined {
    const name = normalizeLabel(label);
    const session = this.#sessions.get(name === null ? `lease:${lease}` : `label:${name}`);
    return session?.lease === lease ? session : undefined;
  }

  /** Live sessions of a lease, oldest first. */
  list(lease: string): Session[] {
    return [...this.#sessions.values()].filter((s) => s.lease === lease).sort((a, b) =>
      a.startedAt - b.startedAt
    );
  }

  /** Every live session (operator view). */
  all(): Session[] {
    return [...this.#sessions.values()].sort((a, b) => a.startedAt - b.startedAt);
  }

  /** Marks a call running in a session. */
  enter(session: Session): void {
    session.inFlight++;
    session.lastUsedAt = Date.now();
  }

  /** Marks a call finished; completes a deferred end. */
  async leave(session: Session): Promise<void> {
    session.inFlight = Math.max(0, session.inFlight - 1);
    session.lastUsedAt = Date.now();
    if (session.inFlight === 0 && session.state === "ending") {
      const hooks = await this.#finish(session, "end_session");
      this.#drained.get(session)?.(hooks);
      this.#drained.delete(session);
    }
  }

  /** Ends one session of a lease (unknown sessions succeed: non-enumerating). */
  async end(
    lease: string,
    label: string | null | undefined,
    reason: EndReason = "end_session",
  ): Promise<EndResult> {
    const session = this.peek(lease, label);
    if (!session) return { ended: false, pending: false, failedHooks: [] };
    const name = normalizeLabel(label);
    if (name !== null) this.#tombstones.set(name, lease);
    if (session.inFlight > 0) {
      // Its calls are aborted (input stops at once); the end completes when the last one returns.
      session.state = "ending";
      const drained = new Promise<string[]>((resolve) => this.#drained.set(session, resolve));
      stopCalls(session);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), END_WAIT_MS));
      const hooks = await Promise.race([drained, late]);
      clearTimeout(timer);
      if (hooks === null) return { ended: false, pending: true, failedHooks: [] };
      return { ended: true, pending: false, failedHooks: hooks };
    }
    return { ended: true, pending: false, failedHooks: await this.#finish(session, reason) };
  }

  /** Ends every session of a closed lease. */
  async endLease(lease: string, reason: EndReason = "lease_closed"): Promise<Session[]> {
    const sessions = this.list(lease);
    for (const session of sessions) await this.#finish(session, reason);
    for (const [label, owner] of this.#tombstones) if (owner === lease) this.#tombstones.delete(label);
    return sessions;
  }

  /** Ends sessions idle longer than the TTL; returns how many. */
  async sweep(now = Date.now()): Promise<number> {
    let ended = 0;
    for (const session of [...this.#sessions.values()]) {
      if (session.inFlight === 0 && now - session.lastUsedAt >= this.idleTtlMs) {
        await this.#finish(session, "idle_timeout");
        ended++;
      }
    }
    return ended;
  }

  /** Starts the periodic idle sweep (does not keep the process alive). */
  startSweeper(): void {
    if (this.#sweeper !== null) return;
    const sweeper = setInterval(() => void this.sweep(), Math.min(SWEEP_INTERVAL_MS, this.idleTtlMs));
    Deno.unrefTimer(sweeper as unknown as number);
    this.#sweeper = sweeper;
  }

  /** Ends everything (process exit). */
  async close(): Promise<void> {
    if (this.#sweeper !== null) clearInterval(this.#sweeper);
    this.#sweeper = null;
    for (const session of [...this.#sessions.values()]) await this.#finish(session, "process_exit");
  }

  /** Number of live sessions. */
  get size(): number {
    return this.#sessions.size;
  }

  #create(key: string, lease: string, transport: TransportKind, label: string | null): Session {
    const now = Date.now();
    const session: Session = {
      id: `${key}@${crypto.randomUUID().slice(0, 8)}`,
      label,
      lease,
      transport,
      startedAt: now,
      lastUsedAt: now,
      state: "active",
      inFlight: 0,
      ending: new AbortController(),
    };
    this.#sessions.set(key, session);
    return session;
  }

  async #finish(session: Session, reason: EndReason): Promise<string[]> {
    if (session.state === "ended") return [];
    session.state = "ended";
    stopCalls(session);
    for (const [key, value] of this.#sessions) if (value === session) this.#sessions.delete(key);
    const failed: string[] = [];
    for (const [name, hook] of this.#hooks) {
      try {
        await hook(session, reason);
      } catch {
        failed.push(name);
      }
    }
    return failed;
  }
}

function unavailable(label: string): DriverError {
  return new DriverError("session_unavailable", `Session "${label}" belongs to another connection`, {
    session: label,
    hint: "use a different session label",
  });
}

/** Aborts the calls a session has in flight (their input stops and says how far it got). */
function stopCalls(session: Session): void {
  session.ending?.abort(abortReason("session_ended", `Session ${session.label ?? "(implicit)"} ended`));
}

function idleTtlFromEnv(): number {
  const value = Number(Deno.env.get("CUA_DRIVER_RS_SESSION_IDLE_TTL_SECS"));
  return Number.isInteger(value) && value > 0 ? value * 1000 : DEFAULT_IDLE_TTL_MS;
}
