/**
 * Element references handed out in snapshots, and their lifetime: each snapshot of a
 * window is one generation of retained AXUIElementRefs; a window keeps its last few
 * generations, older ones are released (their references become stale).
 *
 * @module
 */
import type { AxRole } from "../../ports/accessibility.ts";
import type { CFRef, Owned } from "./cf.ts";

/** One element of a snapshot: an `AxNode.ref` on macOS. */
export class ElementRef {
  /** The neutral role, set when the node was read. */
  role: AxRole = "other";
  constructor(readonly owned: Owned, readonly pid: number, readonly windowId: number) {}

  /** The retained AXUIElementRef. @throws {TypeError} after release. */
  get element(): CFRef {
    return this.owned.ref;
  }

  /** False once its generation was released. */
  get live(): boolean {
    return this.owned.live;
  }
}

/** The references of one snapshot. */
export class Generation {
  readonly refs = new Set<ElementRef>();

  /** Adopts a retained element as a reference of this snapshot. */
  add(element: Owned, pid: number, windowId: number): ElementRef {
    const ref = new ElementRef(element, pid, windowId);
    this.refs.add(ref);
    return ref;
  }

  release(): void {
    for (const ref of this.refs) ref.owned.release();
    this.refs.clear();
  }
}

/** Generations per window key, the newest last. */
export class RefGenerations {
  readonly #byKey = new Map<string, Generation[]>();
  constructor(readonly kept: number) {}

  /** Starts a generation for `key`, releasing the oldest beyond {@linkcode kept}. */
  begin(key: string): Generation {
    const list = this.#byKey.get(key) ?? [];
    const generation = new Generation();
    list.push(generation);
    while (list.length > this.kept) list.shift()!.release();
    this.#byKey.set(key, list);
    return generation;
  }

  /** How many references are alive (for tests and health). */
  get size(): number {
    let count = 0;
    for (const list of this.#byKey.values()) for (const generation of list) count += generation.refs.size;
    return count;
  }

  /** Releases everything. */
  close(): void {
    for (const list of this.#byKey.values()) for (const generation of list) generation.release();
    this.#byKey.clear();
  }
}
