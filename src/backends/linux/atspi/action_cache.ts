/**
 * Remembers action names between snapshots. Names come from one `GetName` call per
 * action, which is most of the per-snapshot call count, yet they are fixed per widget:
 * GTK and Qt give a class's actions statically. Entries are keyed by object path,
 * role and state words, so a state-dependent verb (Chromium's check/uncheck) is
 * fetched again when the state changes.
 *
 * @module
 */
import type { RawNode } from "./raw_node.ts";

/** Entries kept per application before the cache starts over. */
const MAX_ENTRIES = 20_000;
/** Applications kept; the least recently added goes first. */
const MAX_APPS = 32;

/** Action names of objects, per application. */
export class ActionNameCache {
  readonly #apps = new Map<string, Map<string, readonly string[]>>();

  /** Cached names of `node`, or undefined when not cached. */
  get(app: string, node: RawNode): readonly string[] | undefined {
    return this.#apps.get(app)?.get(keyOf(node));
  }

  /** Stores the names of `node`. */
  set(app: string, node: RawNode, names: readonly string[]): void {
    let entries = this.#apps.get(app);
    if (!entries) {
      if (this.#apps.size >= MAX_APPS) this.#apps.delete(this.#apps.keys().next().value!);
      this.#apps.set(app, entries = new Map());
    }
    if (entries.size >= MAX_ENTRIES) entries.clear();
    entries.set(keyOf(node), names);
  }

  /** Drops an application's entries (it went away). */
  forget(app: string): void {
    this.#apps.delete(app);
  }
}

function keyOf(node: RawNode): string {
  return `${node.path}|${node.role}|${node.states[0] ?? 0}|${node.states[1] ?? 0}|${node.interfaces.length}`;
}
