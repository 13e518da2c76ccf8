/**
 * Finding the AT-SPI application of a process: the registry lists one child per
 * application, and the accessibility bus daemon knows each bus name's pid.
 *
 * @module
 */
import type { AtspiBus } from "./atspi_bus.ts";
import { AtspiPath, Iface } from "./interfaces.ts";

/** Maps pids to application bus names, caching each bus name's pid. */
export class AppLocator {
  readonly #bus: AtspiBus;
  /** Bus name → pid (null when the daemon could not tell). */
  readonly #pids = new Map<string, number | null>();
  /** Pid → the bus name last found for it. */
  readonly #found = new Map<number, string>();

  constructor(bus: AtspiBus) {
    this.#bus = bus;
  }

  /**
   * The bus name of the application owned by `pid`. When several match, the first
   * with children wins (Qt can register an empty application first).
   *
   * @returns The bus name, or null when no registered application belongs to `pid`.
   * @throws {DBusError} When the registry does not answer.
   */
  async find(pid: number): Promise<string | null> {
    // An open private socket proves the application still runs: skip the registry.
    const known = this.#found.get(pid);
    if (known !== undefined && this.#bus.hasLivePeer(known)) return known;
    const app = await this.#lookup(pid);
    if (app === null) this.#found.delete(pid);
    else this.#found.set(pid, app);
    return app;
  }

  /** Forgets the application found for `pid` (its tree came back empty or failed). */
  invalidate(pid: number): void {
    this.#found.delete(pid);
  }

  async #lookup(pid: number): Promise<string | null> {
    const [children] = await this.#bus.call(
      AtspiPath.REGISTRY_NAME,
      AtspiPath.ROOT,
      Iface.ACCESSIBLE,
      "GetChildren",
    );
    const names = (children as [string, string][]).map(([name]) => name);
    const live = new Set(names);
    for (const name of this.#pids.keys()) {
      if (!live.has(name)) this.#pids.delete(name);
    }
    for (const [owner, name] of this.#found) {
      if (!live.has(name)) this.#found.delete(owner);
    }
    await Promise.all(
      names.filter((n) => !this.#pids.has(n)).map(async (name) => {
        try {
          const [owner] = await this.#bus.daemon("GetConnectionUnixProcessID", "s", [name]);
          this.#pids.set(name, owner as number);
        } catch {
          this.#pids.set(name, null);
        }
      }),
    );
    const matches = names.filter((name) => this.#pids.get(name) === pid);
    if (matches.length <= 1) return matches[0] ?? null;
    const counts = await Promise.all(
      matches.map((name) =>
        this.#bus.property(name, AtspiPath.ROOT, Iface.ACCESSIBLE, "ChildCount").catch(() => 0)
      ),
    );
    const populated = matches.findIndex((_, i) => typeof counts[i] === "number" && (counts[i] as number) > 0);
    return matches[populated >= 0 ? populated : 0];
  }

  /** Pids of the registered applications seen by the last {@linkcode find}. */
  get knownPids(): ReadonlyMap<string, number | null> {
    return this.#pids;
  }
}
