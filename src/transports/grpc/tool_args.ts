/**
 * Expressing an already converted screen point and a delivery mode in the
 * arguments of the action tools. Window-scoped tools take pixels of the session's
 * latest screenshot of the window; ComputerService hands them pixels of a 1:1
 * capture of the window's current frame (registered once, reused while the frame
 * holds), so the tool's own mapping is the identity and the one real conversion
 * stays in coordinates.ts.
 *
 * @module
 */
import { Code } from "@connectrpc/connect";
import type { ToolRegistry } from "../../core/registry.ts";
import type { Point, WindowInfo } from "../../platform/types.ts";
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
 * The x, y a tool takes for a screen point: screen points for the desktop, else
 * pixels of a 1:1 capture of the window registered for the session of `lease`.
 */
export function pointArgs(
  registry: ToolRegistry,
  lease: string,
  mode: DeliveryMode,
  window: WindowInfo | null,
  point: Point,
): { x: number; y: number } {
  if (mode === "desktop" || window === null) return { x: Math.round(point.x), y: Math.round(point.y) };
  const b = window.bounds;
  const session = registry.state.sessions.resolve(lease, "grpc", null);
  const captures = registry.state.captures;
  const latest = captures.latestForWindow(session.id, window.windowId);
  const identity = latest !== undefined && latest.imageWidth === b.width && latest.imageHeight === b.height &&
    latest.bounds.x === b.x && latest.bounds.y === b.y && latest.bounds.width === b.width &&
    latest.bounds.height === b.height && latest.windowOrigin?.x === b.x && latest.windowOrigin?.y === b.y;
  if (!identity) {
    captures.register({
      kind: "window",
      windowId: window.windowId,
      displayId: "",
      bounds: { ...b },
      windowOrigin: { x: b.x, y: b.y },
      imageWidth: b.width,
      imageHeight: b.height,
      sessionId: session.id,
    });
  }
  return { x: Math.round(point.x - b.x), y: Math.round(point.y - b.y) };
}
