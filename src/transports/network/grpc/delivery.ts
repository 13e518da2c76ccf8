/**
 * Running one ComputerService input through the tool registry (the same tools and
 * ladders MCP agents use) and reporting what happened: the delivery actually used,
 * and focus and pointer changes MEASURED with `backend.input.observe()` before and
 * after the call (the net effect; a foreground transaction restores both).
 *
 * AUTO tries background first and falls back to foreground only when background
 * input is unavailable; BACKGROUND never falls back (FAILED_PRECONDITION +
 * WOULD_REQUIRE_ACTIVATION). Without a target window, input goes to the desktop
 * through the user's pointer and keyboard, reported as FOREGROUND.
 *
 * @module
 */
import { create } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import type { ErrorEnvelope } from "../../../ports/errors.ts";
import type { Point } from "../../../ports/geometry.ts";
import type { DesktopObservation } from "../../../ports/input.ts";
import type { WindowInfo } from "../../../ports/windows.ts";
import { fromDriverFailure, invalid, rpcError, unsupported } from "./errors.ts";
import { type InputScope, readObservation } from "./geometry.ts";
import {
  Delivery,
  type DeliveryReport,
  DeliveryReportSchema,
  ErrorReason,
} from "./gen/cua/env/v1/common_pb.ts";

/** Where an attempt sends input. */
export type DeliveryMode = "background" | "foreground" | "desktop";

/** One tool call that performs the input. */
export interface ToolCall {
  tool: string;
  args: Record<string, unknown>;
}

export type { InputScope } from "./geometry.ts";

/** The delivery modes to try, in order, for a requested Delivery. */
export function deliveryPlan(requested: Delivery, window: WindowInfo | null): DeliveryMode[] {
  if (![Delivery.UNSPECIFIED, Delivery.AUTO, Delivery.BACKGROUND, Delivery.FOREGROUND].includes(requested)) {
    throw invalid(`Unknown delivery ${requested}`, "target.delivery");
  }
  if (window === null) {
    if (requested === Delivery.BACKGROUND) {
      throw rpcError(
        Code.FailedPrecondition,
        ErrorReason.WOULD_REQUIRE_ACTIVATION,
        "DELIVERY_BACKGROUND needs target.window; without one input goes through the user's pointer and keyboard",
      );
    }
    return ["desktop"];
  }
  if (requested === Delivery.BACKGROUND) return ["background"];
  if (requested === Delivery.FOREGROUND) return ["foreground"];
  return ["background", "foreground"];
}

/**
 * Runs `build(mode)` for each planned mode until one is delivered.
 *
 * @throws {ConnectError} the mapped driver refusal of the last attempt.
 */
export async function deliver(
  scope: InputScope,
  plan: DeliveryMode[],
  build: (mode: DeliveryMode) => ToolCall | Promise<ToolCall>,
): Promise<DeliveryReport> {
  let lastFailure: ErrorEnvelope | null = null;
  for (const [index, mode] of plan.entries()) {
    const call = await build(mode);
    if (!scope.registry.get(call.tool)) {
      throw unsupported(`tool.${call.tool}`, `This driver has no "${call.tool}" tool for this input`);
    }
    const before = await observe(scope);
    const result = await scope.registry.call(call.tool, call.args, {
      lease: scope.lease,
      transport: "grpc",
      signal: scope.signal,
    });
    const after = await observe(scope);
    if (result.isError) {
      lastFailure =
        (result.structuredContent ?? { code: "internal_error", message: "Unknown failure" }) as ErrorEnvelope;
      const fallback = lastFailure?.code === "background_unavailable" && index < plan.length - 1;
      if (fallback) continue;
      throw fromDriverFailure(lastFailure ?? undefined);
    }
    const structured = (result.structuredContent ?? {}) as { delivery?: { mode?: string }; effect?: string };
    const text = result.content.find((part) => part.type === "text");
    const fellBack = index > 0 ? "background unavailable, fell back to foreground; " : "";
    return create(DeliveryReportSchema, {
      delivery: reported(structured.delivery?.mode, mode),
      focusChanged: before && after ? focusChanged(before, after) : false,
      pointerMoved: before && after ? moved(before.pointer, after.pointer) : false,
      detail: fellBack + (text?.type === "text" ? text.text : call.tool) +
        (before && after ? "" : " (focus and pointer could not be measured)"),
    });
  }
  throw fromDriverFailure(lastFailure ?? undefined);
}

function reported(toolMode: string | undefined, mode: DeliveryMode): Delivery {
  if (toolMode === "background") return Delivery.BACKGROUND;
  if (toolMode === "foreground") return Delivery.FOREGROUND;
  return mode === "background" ? Delivery.BACKGROUND : Delivery.FOREGROUND;
}

function observe(scope: InputScope): Promise<DesktopObservation | null> {
  return readObservation(scope);
}

function focusChanged(before: DesktopObservation, after: DesktopObservation): boolean {
  return before.activeWindow !== after.activeWindow || before.focusWindow !== after.focusWindow;
}

function moved(a: Point, b: Point): boolean {
  return a.x !== b.x || a.y !== b.y;
}
