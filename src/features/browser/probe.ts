/**
 * Reading an action's effect back over CDP: the element's state before and after
 * (value, checked, hover, focus, scroll, files), the events that reached it, DOM
 * mutations, a navigation, or a dialog that opened. `confirmed` comes only from
 * such a read-back; events alone make an action `unverifiable`.
 *
 * @module
 */
import type { Outcome } from "../../engine/outcome.ts";
import { ELEMENT_STATE, INSTALL_PROBE, READ_PROBE } from "./_page_scripts.ts";
import { objectIdOf, type SnapshotRef } from "./snapshot.ts";
import type { Tab } from "./tab.ts";

/** State of an element an action may change. */
export interface ElementState {
  value: string | null;
  checked: boolean | null;
  hover: boolean | null;
  focused: boolean | null;
  scroll: number[];
  files: { name: string; size: number }[] | null;
  pageScroll: number[] | null;
}

/** What the read-back found. */
export interface Effect {
  dialog: boolean;
  navigatedTo: string | null;
  changed: boolean;
  /** An event of the action reached the element (or the page, for coordinates). */
  delivered: boolean;
  trusted: boolean;
  mutations: number;
  before: ElementState | null;
  after: ElementState | null;
}

const GROUP = "cua-driver-probe";
const SETTLE_MS = 700;
const POLL_MS = 40;

/** A probe around one action. */
export class EffectProbe {
  private constructor(
    readonly tab: Tab,
    readonly key: string,
    readonly objectId: string | null,
    readonly before: ElementState | null,
  ) {}

  /**
   * Installs the probe and reads the element's state.
   *
   * @throws {DriverError} `browser_ref_stale` when the ref's node is gone.
   */
  static async install(tab: Tab, ref: SnapshotRef | null, events: string[]): Promise<EffectProbe> {
    const objectId = ref ? await objectIdOf(tab, ref, GROUP) : null;
    const key = `__cuaProbe${crypto.randomUUID().slice(0, 8)}`;
    const target = objectId ? { objectId } : {
      objectId: (await tab.send("Runtime.evaluate", { expression: "document", objectGroup: GROUP })).result
        .objectId,
    };
    await tab.send("Runtime.callFunctionOn", {
      functionDeclaration: INSTALL_PROBE,
      ...target,
      arguments: [{ value: key }, { value: events }],
    });
    const before = objectId ? await state(tab, objectId) : null;
    return new EffectProbe(tab, key, objectId, before);
  }

  /**
   * Waits up to ~0.7 s for the state change `expect` describes or any DOM mutation, then
   * removes the probe and reports.
   */
  async finish(
    expect?: (before: ElementState, after: ElementState) => boolean,
    settleMs = SETTLE_MS,
  ): Promise<Effect> {
    const effect: Effect = {
      dialog: false,
      navigatedTo: null,
      changed: false,
      delivered: false,
      trusted: false,
      mutations: 0,
      before: this.before,
      after: null,
    };
    const deadline = Date.now() + settleMs;
    try {
      while (true) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        if (this.tab.dialog) return { ...effect, dialog: true };
        const now = await this.tab.current();
        if (this.tab.navigatedFrom(now)) return { ...effect, navigatedTo: now.url, changed: true };
        if (this.objectId && this.before && expect) {
          effect.after = await state(this.tab, this.objectId);
          if (effect.after && expect(this.before, effect.after)) effect.changed = true;
        }
        const peek = await this.tab.send("Runtime.evaluate", {
          expression: `(globalThis[${JSON.stringify(this.key)}] || {}).state`,
          returnByValue: true,
        });
        const mutations = (peek.result.value?.mutations ?? 0) as number;
        if (effect.changed || mutations > 0 || Date.now() >= deadline) break;
      }
      if (this.tab.dialog) return { ...effect, dialog: true };
      const { result } = await this.tab.send("Runtime.evaluate", {
        expression: `(${READ_PROBE})(${JSON.stringify(this.key)})`,
        returnByValue: true,
      });
      const probe = result?.value as {
        events: { type: string; trusted: boolean; inside: boolean }[];
        mutations: number;
      } | null;
      if (probe) {
        effect.mutations = probe.mutations;
        effect.delivered = probe.events.some((e) => e.inside);
        effect.trusted = probe.events.some((e) => e.inside && e.trusted);
        // A mutation counts only when the action's own events reached the page or element.
        if (probe.mutations > 0 && effect.delivered) effect.changed = true;
      }
      return effect;
    } finally {
      // Not awaited: while a dialog holds the page the renderer answers nothing.
      void this.tab.send("Runtime.releaseObjectGroup", { objectGroup: GROUP }).catch(() => {});
    }
  }
}

async function state(tab: Tab, objectId: string): Promise<ElementState | null> {
  try {
    const { result } = await tab.send("Runtime.callFunctionOn", {
      functionDeclaration: ELEMENT_STATE,
      objectId,
      returnByValue: true,
    });
    return result.value as ElementState;
  } catch {
    return null;
  }
}

/**
 * The ActionResult parts of an effect: `confirmed` only with a read-back (a changed
 * state, a mutation, a navigation or a dialog), `unverifiable` when only the events
 * are known to have landed, `suspected_noop` when not even they did.
 */
export function outcomeOf(
  effect: Effect,
  base: Pick<Outcome, "route" | "summary" | "deliveredCount">,
): Outcome {
  const common = { ...base, mode: "background" as const };
  if (effect.dialog) {
    return {
      ...common,
      effect: "confirmed",
      evidence: ["window_change"],
      summary: `${base.summary}; a JavaScript dialog opened (answer it with browser_dialog)`,
    };
  }
  if (effect.navigatedTo !== null) {
    return {
      ...common,
      effect: "confirmed",
      evidence: ["window_change"],
      summary:
        `${base.summary}; the tab navigated to ${effect.navigatedTo} (call get_browser_state for its refs)`,
    };
  }
  if (effect.changed) return { ...common, effect: "confirmed", evidence: ["value_readback"] };
  if (effect.delivered) return { ...common, effect: "unverifiable" };
  return { ...common, effect: "suspected_noop" };
}
