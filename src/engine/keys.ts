/**
 * The keyboard ladder for type_text, press_key and hotkey: text straight into an
 * editable element through accessibility, else keystrokes through the private
 * keyboard (background) or the user's keyboard inside a foreground transaction,
 * with the focused text field read back before and after.
 *
 * @module
 */
import type { AxWatch } from "../ports/accessibility.ts";
import type { Point } from "../ports/geometry.ts";
import type { RawKeyboard } from "../ports/input.ts";
import { cursorApproach, frameCentre } from "../features/agent_cursor/follow.ts";
import { DriverError } from "../ports/errors.ts";
import type { ToolContext } from "../kernel/tool.ts";
import { clickAt, type ClickGesture, type DeliveryMode } from "./click.ts";
import { insertsText, refuseBackgroundFor } from "./toolkit_routes.ts";
import type { Outcome } from "./outcome.ts";
import { elementAt, lineFeeds, waitForChange, watchElement } from "./readback.ts";
import type { ActionTarget } from "./target.ts";
import { type OcrBaseline, ocrBaseline, textAppeared } from "./ocr_readback.ts";
import { judged, Witness, type WitnessScope, witnessScope } from "./witness.ts";

/** What to send. */
export type KeyInput =
  | { kind: "text"; text: string; delayMs?: number }
  | { kind: "key"; key: string; modifiers: string[] };

const FOCUS_CLICK: ClickGesture = { button: "left", count: 1, modifiers: [] };
/** Longest wait for the clicked element to report the focus. */
const FOCUS_WAIT_MS = 800;

function describe(input: KeyInput): string {
  return input.kind === "text"
    ? `typed ${[...input.text].length} characters`
    : `pressed ${[...input.modifiers, input.key].join("+")}`;
}

async function send(keyboard: RawKeyboard, input: KeyInput, signal?: AbortSignal): Promise<number> {
  if (input.kind === "text") return await keyboard.typeText(input.text, input.delayMs, signal);
  await keyboard.press(input.key, input.modifiers);
  return 1;
}

/**
 * The text field the keys go to, for the read-back: the addressed element, else the
 * element under the focus point in this session's snapshot, else the focused
 * editable element of a fresh tree (GTK reports focus only in the active window).
 */
async function textTarget(
  ctx: ToolContext,
  target: Extract<ActionTarget, { scope: "window" }>,
  at: Point | null,
): Promise<unknown | null> {
  const named = target.element?.element;
  if (named?.interfaces?.includes("text")) return named.ref;
  const hit = at ? elementAt(ctx.state.snapshots.current(target.windowId, ctx.session.id), at) : null;
  if (hit?.interfaces?.includes("text")) return hit.ref;
  return await focusedText(ctx, target.pid, target.windowId);
}

/** The focused editable element of a window, from a fresh shallow look at its tree. */
async function focusedText(ctx: ToolContext, pid: number, windowId: number): Promise<unknown | null> {
  try {
    const tree = await ctx.backend.accessibility.tree(
      pid,
      windowId,
      { maxNodes: 2000, maxDepth: 64 },
      ctx.signal,
    );
    const node = tree.nodes.find((n) => n.focused && (n.editable || n.interfaces.includes("editable_text")));
    return node?.ref ?? null;
  } catch {
    return null;
  }
}

async function readText(ctx: ToolContext, ref: unknown | null): Promise<string | null> {
  if (ref === null) return null;
  try {
    return await ctx.backend.accessibility.text(ref);
  } catch {
    return null;
  }
}

/** Characters the text has, as the keyboard counts them (grapheme clusters). */
function characters(text: string): number {
  return [...new Intl.Segmenter().segment(text)].length;
}

/** A keyboard outcome that typed only part of the text is `partial`, whatever the read-back says. */
function partialIf(outcome: Outcome, input: KeyInput): Outcome {
  if (input.kind !== "text" || outcome.deliveredCount === undefined) return outcome;
  if (outcome.deliveredCount >= characters(input.text)) return outcome;
  const { evidence: _evidence, ...rest } = outcome;
  return {
    ...rest,
    effect: "partial",
    summary: `${outcome.summary} (only ${outcome.deliveredCount} of ${
      characters(input.text)
    } characters have a key)`,
  };
}

/**
 * Confirms a keyboard action when the focused field's text changed (and, for typing,
 * contains the typed text); otherwise the witness decides.
 */
async function textReadback(
  ctx: ToolContext,
  ref: unknown | null,
  before: string | null,
  input: KeyInput,
  watch: AxWatch | null = null,
): Promise<Pick<Outcome, "effect" | "evidence"> & { after?: string | null }> {
  if (ref === null || before === null) return { effect: "unverifiable" };
  const expected = input.kind === "text" ? lineFeeds(input.text) : null;
  const { changed, after } = await waitForChange(
    () => readText(ctx, ref),
    before,
    (after) =>
      after !== null && after !== before && (expected === null || lineFeeds(after).includes(expected)),
    // The app processes one key event at a time: give long texts time in proportion.
    input.kind === "text" ? Math.max(800, 300 + 8 * characters(input.text)) : 300,
    watch,
  );
  if (changed) return { effect: "confirmed", evidence: ["value_readback"], after };
  return { effect: "unverifiable", after };
}

/**
 * What an accessibility insert did with newlines: they go in as characters, which the
 * toolkit may treat unlike the Enter key (Writer: a line break inside the paragraph, not a
 * new paragraph; a one-line field: dropped or kept, never "activate").
 */
function newlineNote(text: string): string {
  const count = text.match(/\r\n|\r|\n/g)?.length ?? 0;
  if (count === 0) return "";
  return `; its ${count} newline${count === 1 ? " went" : "s went"} in as newline characters, not Enter ` +
    `(an editor may make them line breaks inside a paragraph): for Enter, press_key "Return", or type ` +
    `without element_token (the window's keys)`;
}

/** Longest part of a field's text quoted in a type_text result. */
const FIELD_QUOTE = 80;

function quoteField(text: string): string {
  const chars = [...text];
  return chars.length <= FIELD_QUOTE
    ? JSON.stringify(text)
    : `${JSON.stringify(chars.slice(0, FIELD_QUOTE).join(""))}...(${chars.length} characters)`;
}

/**
 * What a type_text result says of a field that was not empty: typing adds to its text,
 * so the agent reads what it holds now and how to replace it instead.
 */
export function fieldNote(before: string | null, after: string | null | undefined): string {
  if (before === null || before === "") return "";
  const now = after === undefined || after === null ? "" : `; it holds ${quoteField(after)} now`;
  return `; the field already held ${quoteField(before)}, and the text was added to it${now}` +
    ` (to replace it instead: set_value, or hotkey ctrl+a before typing)`;
}

/**
 * The verdict of keys sent: the text read-back, else the witness. Typed text that a
 * readable field did not get is at best unverifiable, whatever else changed.
 */
async function keysVerdict(
  ctx: ToolContext,
  witness: Witness,
  field: {
    ref: unknown | null;
    before: string | null;
    ocr: OcrBaseline | null;
    watch: AxWatch | null;
    windowId: number;
  },
  input: KeyInput,
  base: Omit<Outcome, "effect" | "evidence">,
  noop: Outcome["escalation"],
): Promise<Outcome> {
  if (field.ocr && await textAppeared(ctx, field.windowId, field.ocr)) {
    return {
      ...base,
      effect: "confirmed",
      evidence: ["value_readback"],
      summary: `${base.summary}; the window shows the typed text`,
    };
  }
  const { after, ...readback } = await textReadback(ctx, field.ref, field.before, input, field.watch);
  const fieldMissed = input.kind === "text" && field.ref !== null && field.before !== null;
  const note = input.kind === "text" ? fieldNote(field.before, after) : "";
  return await judged(witness, { ...base, ...readback, summary: base.summary + note }, {
    changed: fieldMissed ? "unverifiable" : "confirmed",
    noop,
  });
}

/** Runs one keyboard action against a target, optionally focusing a point or element first. */
export async function performKeys(
  ctx: ToolContext,
  target: ActionTarget,
  focusPoint: Point | null,
  input: KeyInput,
  mode: DeliveryMode,
): Promise<Outcome> {
  await cursorApproach(
    ctx,
    () => focusPoint ?? frameCentre(target.element?.element.frame),
    input.kind === "text" ? "text" : "key",
    input.kind === "key" ? input.modifiers : [],
  );
  return partialIf(await keysLadder(ctx, target, focusPoint, input, mode), input);
}

async function keysLadder(
  ctx: ToolContext,
  target: ActionTarget,
  focusPoint: Point | null,
  input: KeyInput,
  mode: DeliveryMode,
): Promise<Outcome> {
  if (target.scope === "desktop") {
    const witness = await Witness.observe(ctx, await witnessScope(ctx, target, null));
    const keyboard = await ctx.input.keyboard("global");
    const count = await send(keyboard, input, ctx.signal);
    witness.sent();
    return await judged(witness, {
      effect: "unverifiable",
      route: "global_input",
      mode: "not_applicable",
      deliveredCount: count,
      summary: `${describe(input)} into the focused window`,
    });
  }
  const element = target.element?.element ?? null;
  const scope = { pid: target.pid, windowId: target.windowId };

  const toolkit = await ctx.backend.input.toolkit(target.pid);
  // 1. Element, background: insert text straight into the editable element. Paced typing
  // (delayMs) is keystrokes: one insert cannot honour a delay between characters.
  const paced = input.kind === "text" && (input.delayMs ?? 0) > 0;
  if (
    input.kind === "text" && element && mode === "background" && !focusPoint && !paced && insertsText(toolkit)
  ) {
    const inserted = await insertIntoElement(ctx, scope, element.ref, input.text);
    if (inserted) {
      return await judged(inserted.witness, {
        ...inserted.outcome,
        summary: `inserted ${[...input.text].length} characters into ${element.platformRole} ${
          JSON.stringify(element.label)
        } through accessibility${newlineNote(input.text)}${fieldNote(inserted.before, inserted.after)}`,
      }, { changed: "unverifiable", noop: { target: "pixel", reason: "suspected_noop" } });
    }
  }

  const at = focusPoint ?? (element ? await centerOf(ctx, element.ref) : null);
  if (mode === "foreground") {
    const pointer = await ctx.input.pointer("global");
    const keyboard = await ctx.input.keyboard("global");
    // Read and judged inside the transaction: activating and restoring the window change
    // what it shows by themselves.
    return await ctx.backend.input.withForeground(target.windowId, async () => {
      if (at) {
        await clickAt(pointer, at, FOCUS_CLICK);
        await ctx.backend.input.appSettled(target.windowId);
        await focusArrived(ctx, element?.ref ?? null);
      }
      const ref = await textTarget(ctx, target, at);
      const before = await readText(ctx, ref);
      const witness = await Witness.observe(ctx, scope, ref === null ? [] : [ref], { steady: true });
      const ocr = await ocrFor(ctx, witness, ref, input, target.windowId);
      // Watched from before the keys, so the read-back wakes on the app's text events.
      const watch = ref !== null && before !== null ? await watchElement(ctx, ref) : null;
      try {
        const count = await send(keyboard, input, ctx.signal);
        witness.sent();
        return await keysVerdict(
          ctx,
          witness,
          { ref, before, ocr, watch, windowId: target.windowId },
          input,
          {
            route: "global_input",
            mode: "foreground",
            deliveredCount: count,
            summary: `${describe(input)} in window ${target.windowId}, then restored the previous window`,
          },
          undefined,
        );
      } finally {
        watch?.close();
      }
    });
  }

  // 2. Background keystrokes through the private keyboard.
  refuseBackgroundFor(toolkit, "keyboard", target);
  if (!(await ctx.backend.input.backgroundAvailable())) {
    throw new DriverError(
      "background_unavailable",
      "This desktop offers no private background keyboard; nothing was sent",
      {
        effect: "refused",
        escalation: { recommended: "foreground", reason: "no_private_keyboard" },
        hint: 'retry with delivery_mode "foreground"',
      },
    );
  }
  if (at) {
    if (!(await ctx.backend.input.windowOnTopAt(target.windowId, at))) {
      // A covered point of an editable field: the text goes in through accessibility, which the
      // covering window never sees. Keys and fields without text access are still refused.
      const hit = input.kind === "text" && insertsText(toolkit)
        ? elementAt(ctx.state.snapshots.current(target.windowId, ctx.session.id), at)
        : null;
      const inserted = hit && input.kind === "text"
        ? await insertIntoElement(ctx, scope, hit.ref, input.text)
        : null;
      if (hit && inserted) {
        return await judged(inserted.witness, {
          ...inserted.outcome,
          summary: `inserted ${
            [...(input as { text: string }).text].length
          } characters into ${hit.platformRole} ${
            JSON.stringify(hit.label)
          } at (${at.x}, ${at.y}), which another window covers, through accessibility`,
        }, { changed: "unverifiable", noop: { target: "foreground", reason: "suspected_noop" } });
      }
      throw new DriverError(
        "background_unavailable",
        `Another window covers window ${target.windowId} at (${at.x}, ${at.y}), so it cannot be clicked to focus the field; nothing was sent`,
        {
          effect: "refused",
          escalation: { recommended: "foreground", reason: "target_covered" },
          hint:
            'pass the field\'s element_token (text goes in through accessibility), or retry with delivery_mode "foreground"',
        },
      );
    }
    const pointer = await ctx.input.pointer("background");
    await clickAt(pointer, at, FOCUS_CLICK);
    await ctx.backend.input.appSettled(target.windowId);
    await focusArrived(ctx, element?.ref ?? null);
  }
  const ref = await textTarget(ctx, target, at);
  const before = await readText(ctx, ref);
  const witness = await Witness.observe(ctx, scope, ref === null ? [] : [ref]);
  const ocr = await ocrFor(ctx, witness, ref, input, target.windowId);
  const keyboard = await ctx.input.keyboard("background");
  // Watched from before the keys, so the read-back wakes on the app's text events.
  const watch = ref !== null && before !== null ? await watchElement(ctx, ref) : null;
  try {
    const count = await ctx.backend.input.withBackgroundKeyboard(
      target.windowId,
      () => send(keyboard, input, ctx.signal),
    );
    witness.sent();
    return await keysVerdict(ctx, witness, { ref, before, ocr, watch, windowId: target.windowId }, input, {
      route: "global_input",
      mode: "background",
      deliveredCount: count,
      summary: `${describe(input)} in window ${target.windowId} with a private keyboard`,
    }, { target: "foreground", reason: "suspected_noop" });
  } finally {
    watch?.close();
  }
}

/**
 * Waits (briefly) until the element clicked for focus reports it: apps that move focus
 * asynchronously (Firefox) would otherwise show the focus arriving as the keys' effect.
 */
async function focusArrived(ctx: ToolContext, ref: unknown | null): Promise<void> {
  if (ref === null) return;
  await waitForChange(
    () => ctx.backend.accessibility.state(ref).then((s) => s.focused, () => true),
    false,
    (focused) => focused,
    FOCUS_WAIT_MS,
  );
}

/**
 * For typing into an app without accessibility (a terminal): the window's text read
 * before, so the typed text can be found on screen afterwards. Null otherwise.
 */
function ocrFor(
  ctx: ToolContext,
  witness: Witness,
  ref: unknown | null,
  input: KeyInput,
  windowId: number,
): Promise<OcrBaseline | null> {
  if (input.kind !== "text" || ref !== null || witness.accessible) return Promise.resolve(null);
  return ocrBaseline(ctx, windowId, input.text);
}

async function centerOf(ctx: ToolContext, ref: unknown): Promise<Point> {
  const frame = await ctx.backend.accessibility.frame(ref);
  if (!frame) {
    throw new DriverError("delivery_failed", "The element has no on-screen geometry to click for focus", {
      hint: "call get_window_state and pick a visible element",
    });
  }
  return { x: Math.round(frame.x + frame.width / 2), y: Math.round(frame.y + frame.height / 2) };
}

/**
 * EditableText insert at the caret (end when unknown), read back, with the witness
 * that judges it when the read-back does not confirm. Null when the element takes no text.
 */
async function insertIntoElement(
  ctx: ToolContext,
  scope: WitnessScope,
  ref: unknown,
  text: string,
): Promise<
  { outcome: Omit<Outcome, "summary">; witness: Witness; before: string; after: string | null } | null
> {
  const before = await readText(ctx, ref);
  if (before === null) return null;
  const caret = await ctx.backend.accessibility.caretOffset(ref);
  const length = [...before].length;
  const offset = caret >= 0 && caret <= length ? caret : length;
  const witness = await Witness.observe(ctx, scope, [ref]);
  let ok = false;
  try {
    ok = await ctx.backend.accessibility.insertText(ref, offset, text);
  } catch {
    return null;
  }
  if (!ok) return null;
  witness.sent();
  const chars = [...before];
  const expected = [...chars.slice(0, offset), ...text, ...chars.slice(offset)].join("");
  // Compared as the control stores line ends (CR LF in a Windows edit, CR in a rich edit).
  const { changed, after } = await waitForChange(
    () => readText(ctx, ref),
    before,
    (after) => after !== null && lineFeeds(after) === lineFeeds(expected),
  );
  const outcome = {
    route: "accessibility" as const,
    mode: "background" as const,
    deliveredCount: [...text].length,
  };
  return {
    witness,
    before,
    after,
    outcome: changed
      ? { ...outcome, effect: "confirmed", evidence: ["value_readback"] }
      : { ...outcome, effect: "unverifiable" },
  };
}
