/**
 * The live view's list of calls: a call observer (registered only while someone watches) that
 * turns each top-level tool call into one entry: tool, target, route, effect, evidence,
 * duration, error code, and where it acted with a thumbnail of that spot. The newest entries
 * are kept for a viewer that connects later.
 *
 * @module
 */
import type { CallObserver, ObservedCall } from "../../kernel/call_observer.ts";
import { elementOf } from "../../features/recording/turn_target.ts";
import { redactArguments } from "../../features/recording/policy.ts";
import type { ToolResult } from "../../kernel/result.ts";

/** Entries kept for a viewer that connects later. */
export const KEPT_CALLS = 100;

/** One call as the page lists it. */
export interface ViewCall {
  id: number;
  tool: string;
  /** What it was aimed at, in words ("window 0x1a00003 (pid 4242)", "element s1:5", "screen"). */
  target: string;
  /** The arguments, with the recording's redactions (typed text, clipboard contents). */
  arguments: Record<string, unknown>;
  started_ms: number;
  /** Filled when it ends. */
  duration_ms: number | null;
  status: "running" | "ok" | "error" | "refused";
  route: string | null;
  effect: string | null;
  evidence: string[];
  /** The error or refusal code. */
  code: string | null;
  /** The result's first line of text, shortened. */
  summary: string;
  /** Where it acted, in screen points. */
  point: { x: number; y: number } | null;
  /** A JPEG (base64) of the screen around `point`, from the frame before the call. */
  thumbnail: string | null;
}

/** What the call feed needs from the rest of the view. */
export interface CallFeedHooks {
  emit(call: ViewCall): void;
  callStarted(): void;
  callEnded(): void;
  thumbnail(point: { x: number; y: number }): Promise<string | null>;
}

const SUMMARY_MAX = 200;

/** Watches calls for the view. */
export class CallFeed implements CallObserver {
  readonly #kept: ViewCall[] = [];
  #next = 1;

  constructor(readonly hooks: CallFeedHooks) {}

  /** The newest calls, oldest first. */
  get recent(): readonly ViewCall[] {
    return this.#kept;
  }

  before(call: ObservedCall) {
    // A batch's own steps are shown through the batch (run_actions, replay_trajectory).
    if (call.nested) return null;
    const { arguments: args } = redactArguments(call.tool.name, call.args);
    const element = elementOf(call.ctx, call.args);
    const frame = element?.element.frame ?? null;
    const entry: ViewCall = {
      id: this.#next++,
      tool: call.tool.name,
      target: targetText(call.args, element?.window ?? null),
      arguments: args,
      started_ms: Date.now(),
      duration_ms: null,
      status: "running",
      route: null,
      effect: null,
      evidence: [],
      code: null,
      summary: "",
      point: frame ? { x: frame.x + frame.width / 2, y: frame.y + frame.height / 2 } : null,
      thumbnail: null,
    };
    this.#keep(entry);
    this.hooks.callStarted();
    this.hooks.emit(entry);
    const started = performance.now();
    // The thumbnail comes from the frame the viewer saw before the call acted.
    const thumbnailFor = (point: { x: number; y: number }) => this.hooks.thumbnail(point);
    return (result: ToolResult) => {
      this.hooks.callEnded();
      finish(entry, result, performance.now() - started);
      this.hooks.emit(entry);
      // The thumbnail follows in an update: the call's reply never waits for it.
      if (entry.point) {
        void thumbnailFor(entry.point).then((thumbnail) => {
          if (!thumbnail) return;
          entry.thumbnail = thumbnail;
          this.hooks.emit(entry);
        }, () => {});
      }
    };
  }

  #keep(entry: ViewCall): void {
    this.#kept.push(entry);
    if (this.#kept.length > KEPT_CALLS) this.#kept.splice(0, this.#kept.length - KEPT_CALLS);
  }
}

/** Fills an entry from the call's result. */
function finish(entry: ViewCall, result: ToolResult, durationMs: number): void {
  const structured = (result.structuredContent ?? {}) as Record<string, unknown>;
  entry.duration_ms = Math.round(durationMs * 10) / 10;
  const refusal = structured.refusal as { code?: string } | undefined;
  const error = structured.error as { code?: string } | undefined;
  if (result.isError) {
    entry.status = "error";
    entry.code = (structured.code as string | undefined) ?? error?.code ?? null;
  } else if (structured.status === "refused" || structured.effect === "refused") {
    entry.status = "refused";
    entry.code = refusal?.code ?? null;
  } else {
    entry.status = "ok";
  }
  if (typeof structured.route === "string") entry.route = structured.route;
  if (typeof structured.effect === "string") entry.effect = structured.effect;
  const evidence = structured.evidence;
  if (Array.isArray(evidence)) {
    entry.evidence = evidence.map((e) => String((e as { kind?: unknown }).kind ?? "")).filter(Boolean);
  }
  const points = structured.points;
  if (Array.isArray(points) && points.length) {
    const screen = (points[0] as { screen?: { x: number; y: number } }).screen;
    if (screen) entry.point = { x: screen.x, y: screen.y };
  }
  const text = result.content.find((part) => part.type === "text");
  const line = text?.type === "text" ? text.text.split("\n")[0] : "";
  entry.summary = line.length > SUMMARY_MAX ? `${line.slice(0, SUMMARY_MAX - 1)}…` : line;
}

/** The call's target in words, from its arguments. */
function targetText(
  args: Readonly<Record<string, unknown>>,
  fromElement: { pid: number; windowId: number } | null,
): string {
  const target = args.target as { kind?: unknown; pid?: unknown; window_id?: unknown } | undefined;
  const windowId = typeof target?.window_id === "number"
    ? target.window_id
    : typeof args.window_id === "number"
    ? args.window_id
    : fromElement?.windowId;
  const pid = typeof target?.pid === "number"
    ? target.pid
    : typeof args.pid === "number"
    ? args.pid
    : fromElement?.pid;
  const parts: string[] = [];
  if (typeof args.element_token === "string") parts.push(`element ${args.element_token}`);
  if (windowId !== undefined) parts.push(`window ${windowId}${pid !== undefined ? ` (pid ${pid})` : ""}`);
  else if (pid !== undefined) parts.push(`pid ${pid}`);
  if (target?.kind === "desktop" || args.scope === "desktop") parts.push("desktop");
  if (typeof args.x === "number" && typeof args.y === "number") parts.push(`at (${args.x}, ${args.y})`);
  return parts.join(" ") || "—";
}
