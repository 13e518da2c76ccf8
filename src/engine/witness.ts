/**
 * The witness of an action: what the target app shows, read before the input goes out
 * and compared afterwards, so that every verdict rests on a comparison. It reads the
 * app's accessible state (every object's role, name and states, the focused object, the
 * text, caret, selection and value of the focused object and of the aimed-at elements)
 * and, as the last resort, the window's own pixels.
 *
 * A change is evidence that the input landed (`window_change`); no change anywhere is a
 * suspected no-op; only an app that shows nothing readable leaves an action unverifiable.
 *
 * @module
 */
import type { AppStateSample, AxWatch } from "../ports/accessibility.ts";
import type { Point } from "../ports/geometry.ts";
import type { WindowInfo } from "../ports/windows.ts";
import {
  changedBox,
  emptyMask,
  isCaretBlink,
  maskChanges,
  type PixelFrame,
  pixelFrame,
  type TileMask,
} from "../lib/image/pixel_change.ts";
import { FramePool } from "../lib/image/frame_pool.ts";
import type { ToolContext } from "../kernel/tool.ts";
import type { Outcome } from "./outcome.ts";
import { nextEvent } from "./readback.ts";

/** The window (and its process, when known) an action may change. */
export interface WitnessScope {
  pid: number | null;
  windowId: number;
}

/** What a witness saw after the action. */
export interface Finding {
  /** False when neither the app's accessible state nor its pixels could be read. */
  readable: boolean;
  /** What changed, in words; empty when nothing did. */
  changes: string[];
  /**
   * True when the only change seen is the window's pixels (a redrawn focus rectangle is one):
   * nothing of the app's own state said what changed.
   */
  pixelsOnly?: true;
}

/** The finding of a window that is gone after the action. */
const WINDOW_CLOSED = "the window closed";
/** How long after the input a witness waits for a change before calling it a no-op. */
export const SETTLE_MS = 700;
const POLL_MS = 30;
/** Least time between two looks woken by the app's events (a busy app sends many). */
const MIN_LOOK_GAP_MS = 5;
/** Interval of the two looks that tell an animation (changes in both) from a reaction. */
const STILL_MS = 150;
/** Longest wait for a window to stop animating before a foreground action (activation transitions). */
const STEADY_MS = 450;
const MAX_CHANGES = 4;
/** A before-sample slower than this is repeated only at the end of the settle wait, not polled. */
const SLOW_SAMPLE_MS = 400;

/** Buffers of the witnesses' frames they no longer read (see frame_pool.ts). */
const frames = new FramePool();
/**
 * Witnesses whose before-frame has not gone back to {@linkcode frames}: a witness that settles
 * gives it back then; one whose action was confirmed another way (a read-back) never settles, and
 * gives it back when its action ends ({@linkcode releaseWitnesses}).
 */
const holding = new Map<Witness, number>();
let created = 0;

/** A mark for {@linkcode releaseWitnesses}: the witnesses observed after it are the action's own. */
export function witnessMark(): number {
  return created;
}

/**
 * Ends the witnesses observed since `mark` (the action that took it is over; actions run one at a
 * time): their before-frames go back to the pool for the next captures, unless a settle still
 * reads one (it gives it back itself).
 */
export function releaseWitnesses(mark: number): void {
  for (const [witness, serial] of holding) {
    if (serial > mark) witness.release();
  }
}

/** Reads a window's pixels (into a spare buffer when one fits); null when it cannot be captured. */
async function capture(ctx: ToolContext, windowId: number): Promise<PixelFrame | null> {
  const into = frames.take();
  try {
    return pixelFrame((await ctx.backend.screen.captureWindow(windowId, into ? { into } : undefined)).image);
  } catch {
    return null;
  }
}

async function sample(ctx: ToolContext, pid: number | null, refs: readonly unknown[]) {
  if (pid === null) return null;
  try {
    return await ctx.backend.accessibility.sample(pid, refs, ctx.signal);
  } catch {
    return null;
  }
}

/** Compares an app's accessible state before and after; the differences in words. */
export function describeChanges(before: AppStateSample, after: AppStateSample): string[] {
  const out: string[] = [];
  if (before.focus !== after.focus) {
    out.push(
      after.focus === null ? "focus left the app's widgets" : `focus moved to ${after.describe(after.focus)}`,
    );
  }
  const keys = new Set([...before.details.keys(), ...after.details.keys()]);
  for (const key of keys) {
    const [object, facet] = key.split("#");
    if (before.focus !== after.focus && (object === before.focus || object === after.focus)) continue;
    const a = before.details.get(key), b = after.details.get(key);
    if (a === undefined || b === undefined || a === b) continue;
    const what = after.describe(object);
    out.push(
      facet === "caret"
        ? `caret of ${what} moved ${a} -> ${b}`
        : facet === "value"
        ? `value of ${what} ${a} -> ${b}`
        : `${facet} of ${what} changed`,
    );
  }
  let appeared = 0, vanished = 0;
  const changed: string[] = [];
  for (const [key, print] of after.objects) {
    const old = before.objects.get(key);
    if (old === undefined) appeared++;
    else if (old !== print) changed.push(key);
  }
  for (const key of before.objects.keys()) if (!after.objects.has(key)) vanished++;
  if (appeared) out.push(`${appeared} accessible object${appeared === 1 ? "" : "s"} appeared`);
  if (vanished) out.push(`${vanished} accessible object${vanished === 1 ? "" : "s"} went away`);
  for (const key of changed.slice(0, MAX_CHANGES)) out.push(`${after.describe(key)} changed`);
  if (changed.length > MAX_CHANGES) out.push(`${changed.length - MAX_CHANGES} more objects changed`);
  return out;
}

/**
 * A before-reading of the app and window an action targets. Create it with
 * {@linkcode Witness.observe} right before the input goes out, call
 * {@linkcode Witness.sent} when it has, and {@linkcode Witness.settle} for the finding.
 */
export class Witness {
  readonly #ctx: ToolContext;
  readonly #scope: WitnessScope | null;
  readonly #refs: readonly unknown[];
  readonly #before: AppStateSample | null;
  #frame: PixelFrame | null;
  readonly #mask: TileMask | null;
  #sentAt = performance.now();
  #finding: Promise<Finding> | null = null;
  /** The app takes long to sample (LibreOffice): sample again only once the pixels are settled. */
  #slowSample = false;
  /** The app's accessibility events, when watched: the next look comes at its next event. */
  #watch: AxWatch | null = null;

  private constructor(
    ctx: ToolContext,
    scope: WitnessScope | null,
    refs: readonly unknown[],
    before: AppStateSample | null,
    frame: PixelFrame | null,
    mask: TileMask | null,
  ) {
    this.#ctx = ctx;
    this.#scope = scope;
    this.#refs = refs;
    this.#before = before;
    this.#frame = frame;
    this.#mask = mask;
    if (frame) holding.set(this, ++created);
  }

  /**
   * Gives the before-frame back to the pool unless a settle reads it (which gives it back when
   * done); the witness reads no pixels afterwards. Called when its action ends.
   */
  release(): void {
    if (!holding.delete(this) || this.#finding) return;
    frames.give(this.#frame);
    this.#frame = null;
  }

  /**
   * Reads the scope's state now. Pixels that change while it reads (an animation) are
   * masked out of the later comparison; with `steady`, it first waits (briefly) for the
   * window to stop changing, as after an activation.
   *
   * @param scope The window to watch; null for none (nothing readable).
   * @param refs Elements whose text, caret, selection, value and states to read too.
   * @param options.watch A watch of the app (see `watchElement`): after the input, the
   *   witness looks again when the app reports an event rather than every 30 ms.
   */
  static async observe(
    ctx: ToolContext,
    scope: WitnessScope | null,
    refs: readonly unknown[] = [],
    options: { steady?: boolean; watch?: AxWatch | null } = {},
  ): Promise<Witness> {
    if (scope === null) return new Witness(ctx, null, refs, null, null, null);
    let first = await capture(ctx, scope.windowId);
    if (options.steady && first) {
      const deadline = performance.now() + STEADY_MS;
      while (performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        const next = await capture(ctx, scope.windowId);
        if (!next) break;
        const settled = changedBox(first, next) === null;
        frames.give(first);
        first = next;
        if (settled) break;
      }
    }
    const started = performance.now();
    const before = await sample(ctx, scope.pid, refs);
    const sampleMs = performance.now() - started;
    const second = first ? await capture(ctx, scope.windowId) : null;
    let mask: TileMask | null = null;
    if (first && second) {
      mask = emptyMask(second);
      maskChanges(mask, first, second);
      frames.give(first);
    }
    const witness = new Witness(ctx, scope, refs, before, second ?? first, mask);
    witness.#slowSample = sampleMs > SLOW_SAMPLE_MS;
    witness.#watch = options.watch ?? null;
    return witness;
  }

  /** True when the app's accessible state was read (false for apps without accessibility). */
  get accessible(): boolean {
    return this.#before !== null;
  }

  /**
   * True when a change of the window's pixels alone proves an action landed; false on a back end
   * whose actions are confirmed only by the app's own state (its `confirmsFromStateOnly`).
   */
  get pixelsConfirm(): boolean {
    return this.#ctx.backend.accessibility.confirmsFromStateOnly !== true;
  }

  /** True when something of the app can be compared. */
  get readable(): boolean {
    return this.#before !== null || this.#frame !== null;
  }

  /** Marks the moment the input went out; {@linkcode settle} waits from here. */
  sent(): void {
    this.#sentAt = performance.now();
  }

  /**
   * Compares the app with its before-reading until something changed or `timeoutMs`
   * after {@linkcode sent}; at least once. The first finding is kept: later calls
   * return it.
   */
  settle(timeoutMs = SETTLE_MS): Promise<Finding> {
    // The before-frame is not read once the finding is in.
    this.#finding ??= this.#settle(timeoutMs).finally(() => {
      holding.delete(this);
      frames.give(this.#frame);
    });
    return this.#finding;
  }

  /** True once {@linkcode settle} found nothing changed (a read-back can then skip its wait). */
  async settledUnchanged(): Promise<boolean> {
    if (this.#finding === null) return false;
    const finding = await this.#finding;
    return finding.readable && finding.changes.length === 0;
  }

  async #settle(timeoutMs: number): Promise<Finding> {
    if (!this.readable || this.#scope === null) return { readable: false, changes: [] };
    const scope = this.#scope;
    const deadline = this.#sentAt + timeoutMs;
    let pending: Promise<void> | null = null;
    let accessible: string[] = [];
    let finalLook = false;
    let pixelsMoved: string | null = null;
    let accessibleChanged = () => {};
    const saidWhatChanged = new Promise<void>((resolve) => accessibleChanged = resolve);
    const readAccessible = () =>
      sample(this.#ctx, scope.pid, this.#refs).then((after) => {
        accessible = after && this.#before ? describeChanges(this.#before, after) : [];
        if (accessible.length) accessibleChanged();
      });
    while (true) {
      const lookedAt = performance.now();
      const sampleNow = !this.#slowSample || finalLook;
      if (this.#before && pending === null && sampleNow) {
        pending = readAccessible().finally(() => pending = null);
      }
      const pixels = await this.#pixelChange(saidWhatChanged);
      // The app's accessible state says what changed: no need to finish telling the pixels'
      // reaction from an animation (two more looks, 300 ms).
      if (accessible.length) return { readable: true, changes: accessible };
      // A window that closed is the app's own doing, not a repaint.
      if (pixels === WINDOW_CLOSED) return { readable: true, changes: [pixels] };
      if (pixels !== null && this.pixelsConfirm) {
        // The pixels moved: give the accessible reading a moment to say what changed.
        await Promise.race([pending, new Promise((resolve) => setTimeout(resolve, 150))]);
        if (accessible.length) return { readable: true, changes: accessible };
        return { readable: true, changes: [pixels], pixelsOnly: true };
      }
      if (pixels !== null) {
        // Pixels prove nothing here: the app's own state must say what changed, however long
        // its reading takes; until the deadline, the next readings may still.
        pixelsMoved = pixels;
        if (pending) await pending;
      }
      if (accessible.length) return { readable: true, changes: accessible };
      if (performance.now() >= deadline) {
        if (pending) await pending;
        if (accessible.length) return { readable: true, changes: accessible };
        if (finalLook) {
          return pixelsMoved
            ? { readable: true, changes: [pixelsMoved], pixelsOnly: true }
            : { readable: true, changes: [] };
        }
        // Before calling it a no-op: let a slow (or busy) app catch up with the input it
        // was sent, then look once more.
        finalLook = true;
        await this.#ctx.backend.input.appSettled(scope.windowId).catch(() => {});
        continue;
      }
      await this.#nextLook(lookedAt);
    }
  }

  /** Until the app's next event (at least {@linkcode MIN_LOOK_GAP_MS} after the last look), or {@linkcode POLL_MS}. */
  async #nextLook(lookedAt: number): Promise<void> {
    if (this.#watch) {
      await nextEvent(this.#watch, POLL_MS, lookedAt, MIN_LOOK_GAP_MS);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }

  /** "the window closed" when the window that was captured before is no longer there (the action closed it). */
  async #windowGone(): Promise<string | null> {
    if (!this.#scope) return null;
    const window = await this.#ctx.backend.windows.get(this.#scope.windowId).catch(() => undefined);
    return window === null ? WINDOW_CLOSED : null;
  }

  /**
   * A change of the window's pixels since the before-reading, outside the masked tiles.
   * Tiles that then keep changing on their own, in each of two consecutive intervals (a
   * spinner, a pulsing progress bar), are an animation: they are masked and only what
   * else changed counts. A reaction in stages (a key drawn pressed, then the display
   * updated) settles within the intervals and counts. Those looks stop (null) once
   * `answered` resolves: something else said what changed.
   */
  async #pixelChange(answered: Promise<void>): Promise<string | null> {
    if (!this.#frame || !this.#scope) return null;
    const now = await capture(this.#ctx, this.#scope.windowId);
    if (!now) return await this.#windowGone();
    const looks = [now];
    try {
      return await this.#reactionIn(looks, answered);
    } finally {
      // No look is read after this.
      for (const look of looks) frames.give(look);
    }
  }

  /** The change `looks[0]` shows, unless it is an animation (see {@linkcode #pixelChange}); more looks are added to `looks`. */
  async #reactionIn(looks: PixelFrame[], answered: Promise<void>): Promise<string | null> {
    const before = this.#frame!, scope = this.#scope!;
    let now = looks[0];
    let box = changedBox(before, now, this.#mask ?? undefined);
    if (box === null || isCaretBlink(box)) return null;
    if (this.#mask && now.width === before.width && now.height === before.height) {
      for (let i = 0; i < 2; i++) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const stopped = await Promise.race([
          new Promise<boolean>((resolve) => timer = setTimeout(() => resolve(false), STILL_MS)),
          answered.then(() => true),
        ]);
        clearTimeout(timer);
        if (stopped) return null;
        const next = await capture(this.#ctx, scope.windowId);
        if (next) looks.push(next);
      }
      if (looks.length === 3 && looks.every((f) => f.width === now.width && f.height === now.height)) {
        const first = emptyMask(now), second = emptyMask(now);
        maskChanges(first, looks[0], looks[1]);
        maskChanges(second, looks[1], looks[2]);
        first.tiles.forEach((tile, i) => {
          if (tile && second.tiles[i]) this.#mask!.tiles[i] = 1;
        });
        now = looks[2];
        box = changedBox(before, now, this.#mask);
        if (box === null || isCaretBlink(box)) return null;
      }
    }
    return `the window's pixels changed in ${box.width}x${box.height} at (${box.x}, ${box.y})`;
  }
}

/** The window an action's scope names: the target window, else the window a desktop action reaches. */
export async function witnessScope(
  ctx: ToolContext,
  target: { scope: "window"; pid: number; windowId: number } | { scope: "desktop" },
  point: Point | null,
): Promise<WitnessScope | null> {
  if (target.scope === "window") return { pid: target.pid, windowId: target.windowId };
  try {
    if (point) return scopeOf(topWindowAt(await ctx.backend.windows.list(), point));
    const { activeWindow } = await ctx.backend.input.observe();
    return activeWindow === null ? null : scopeOf(await ctx.backend.windows.get(activeWindow));
  } catch {
    return null;
  }
}

function scopeOf(window: WindowInfo | null): WitnessScope | null {
  return window ? { pid: window.pid, windowId: window.windowId } : null;
}

/** The front-most listed window containing a screen point. */
function topWindowAt(windows: readonly WindowInfo[], point: Point): WindowInfo | null {
  let best: WindowInfo | null = null;
  for (const window of windows) {
    const b = window.bounds;
    if (!window.isOnScreen) continue;
    if (point.x < b.x || point.y < b.y || point.x >= b.x + b.width || point.y >= b.y + b.height) continue;
    if (best === null || (window.zIndex ?? 0) >= (best.zIndex ?? 0)) best = window;
  }
  return best;
}

/** What {@linkcode judged} does with an outcome when the witness saw a change, or none. */
export interface JudgeOptions {
  /** The effect a change proves (default `confirmed`; `unverifiable` when the intended change is known not to have happened). */
  changed?: "confirmed" | "unverifiable";
  /** The escalation a no-op gets (none by default). */
  noop?: Outcome["escalation"];
}

/**
 * The verdict of an action from its own read-back and its witness: a confirmed or
 * partial outcome stands; otherwise whatever changed in the app proves the input landed
 * (`confirmed` with `window_change` evidence, no escalation), nothing changed anywhere
 * makes it a suspected no-op, and only an app with nothing readable stays unverifiable.
 * Where the back end confirms only from the app's own state, a change of pixels alone
 * leaves the action unverifiable.
 */
export async function judged(
  witness: Witness,
  outcome: Outcome,
  options: JudgeOptions = {},
): Promise<Outcome> {
  if (outcome.effect === "confirmed" || outcome.effect === "partial" || outcome.effect === "refused") {
    return outcome;
  }
  const finding = await witness.settle();
  if (!finding.readable) return outcome;
  const { evidence: _evidence, escalation: _escalation, ...rest } = outcome;
  if (finding.changes.length > 0 && finding.pixelsOnly && !witness.pixelsConfirm) {
    // Something was redrawn, but no state the app owns shows the intended change.
    return {
      ...rest,
      effect: "unverifiable",
      summary: `${outcome.summary}; ${finding.changes.join("; ")}, but no state of the app read back changed`,
    };
  }
  if (finding.changes.length > 0) {
    const effect = options.changed ?? "confirmed";
    return {
      ...rest,
      effect,
      ...(effect === "confirmed" ? { evidence: ["window_change" as const] } : {}),
      summary: `${outcome.summary}; ${finding.changes.join("; ")}`,
    };
  }
  return {
    ...rest,
    effect: "suspected_noop",
    ...(options.noop ? { escalation: options.noop } : {}),
    summary: `${outcome.summary}; nothing the app shows changed`,
  };
}

/**
 * Runs `body` inside the foreground transaction of `scope`'s window with a witness read
 * after the activation settled and judged before the previous window comes back
 * (activating and restoring a window change what it shows by themselves).
 */
export async function witnessedForeground<T>(
  ctx: ToolContext,
  scope: WitnessScope,
  refs: readonly unknown[],
  body: () => Promise<T>,
): Promise<{ value: T; witness: Witness }> {
  return await ctx.backend.input.withForeground(scope.windowId, async () => {
    const witness = await Witness.observe(ctx, scope, refs, { steady: true });
    const value = await body();
    witness.sent();
    await witness.settle();
    return { value, witness };
  });
}
