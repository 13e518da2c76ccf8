/**
 * Per-connection leases for gRPC calls: every TCP connection (HTTP/2 session or
 * HTTP/1.1 keep-alive connection) is one lease, as for /mcp (contract.md §4, §5.6),
 * and closing it ends the lease's sessions.
 *
 * @module
 */
import { createContextKey, type HandlerContext } from "@connectrpc/connect";
import type { ToolRegistry } from "../../../kernel/registry.ts";

/** The lease of the connection a call came in on. */
export const kLease = createContextKey<string>("", { description: "cua-driver connection lease" });

/** The lease of a call (set by the listener's contextValues). */
export function leaseOf(ctx: HandlerContext): string {
  const lease = ctx.values.get(kLease);
  if (lease === "") throw new TypeError("gRPC call without a connection lease");
  return lease;
}

/**
 * The connection's second lease, for ComputerService: its screenshots and the pixel
 * spaces its input registers stay apart from the tool calls of DriverService on the
 * same connection (whose `click` x, y refer to get_window_state screenshots).
 */
export function computerLeaseOf(ctx: HandlerContext): string {
  return `${leaseOf(ctx)}/computer`;
}

/** Hands out one lease per connection object and ends it when the connection closes. */
export class ConnectionLeases {
  readonly #leases = new WeakMap<object, string>();
  readonly #open = new Set<string>();

  constructor(readonly registry: ToolRegistry, readonly prefix: string) {}

  /**
   * The lease of `connection` (a socket or an HTTP/2 session), created on first use;
   * `onClose` registers the callback that fires when the connection goes away.
   */
  leaseFor(connection: object, onClose: (callback: () => void) => void): string {
    let lease = this.#leases.get(connection);
    if (lease === undefined) {
      lease = `${this.prefix}-${crypto.randomUUID()}`;
      this.#leases.set(connection, lease);
      this.#open.add(lease);
      const ended = lease;
      onClose(() => void this.end(ended));
    }
    return lease;
  }

  /** Ends one lease's sessions (idempotent). */
  async end(lease: string): Promise<void> {
    if (!this.#open.delete(lease)) return;
    for (const owned of [lease, `${lease}/computer`]) {
      await this.registry.endLease(owned).catch(() => {});
    }
  }

  /** Ends every open lease (server shutdown). */
  async endAll(): Promise<void> {
    await Promise.all([...this.#open].map((lease) => this.end(lease)));
  }
}
