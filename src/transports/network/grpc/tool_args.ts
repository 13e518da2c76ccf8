/**
 * Expressing an already converted screen point and a delivery mode in the
 * arguments of the action tools. ComputerService hands window-scoped tools screen
 * points with `coordinate_space: "screen"`, so the one real conversion stays in
 * coordinates.ts and no screenshot the session took changes where a point lands.
 *
 * @module
 */
import { Code } from "@connectrpc/connect";
import type { Point } from "../../../ports/geometry.ts";
import type { WindowInfo } from "../../../ports/windows.ts";
import type { DeliveryMode } from "./delivery.ts";
import { rpcError } from "./errors.ts";
import { ErrorReason } from "./gen/cua/env/v1/common_pb.ts";

/** How a tool names its window. */
export type TargetStyle = "target" | "legacy";

/** The target (and delivery_mode, when the tool has one) of a tool call. */
export function targetArgs(
  mode: DeliveryMode,
  window: WindowInfo | null,
  options: { style?: TargetStyle; deliveryParam?: boolean } = {},
): Record<string, unknown> {
  if (mode === "desktop" || window === null) {
    return options.style === "legacy" ? {} : { target: { kind: "desktop" } };
  }
  if (window.pid === null) {
    throw rpcError(
      Code.FailedPrecondition,
      ErrorReason.TARGET_UNAVAILABLE,
      `Window ${window.windowId} has no verifiable owner process, so input cannot be aimed at it`,
    );
  }
  const target = options.style === "legacy"
    ? { pid: window.pid, window_id: window.windowId }
    : { target: { kind: "window", pid: window.pid, window_id: window.windowId } };
  return options.deliveryParam === false ? target : { ...target, delivery_mode: mode };
}

/**
 * The x, y a tool takes for a screen point: screen points, said to be so
 * (`coordinate_space: "screen"`) for a window, so no screenshot of the window
 * (older, differently scaled, or none) can change where the point lands.
 */
export function pointArgs(
  mode: DeliveryMode,
  window: WindowInfo | null,
  point: Point,
): { x: number; y: number; coordinate_space?: "screen" } {
  const at = { x: Math.round(point.x), y: Math.round(point.y) };
  if (mode === "desktop" || window === null) return at;
  return { ...at, coordinate_space: "screen" };
}
