/**
 * What ComputerService input needs to know about the desktop, read through the registry
 * (`computer_context`, an unlisted tool): every read is an authorized call in the
 * connection's session that call observers see, like the input it serves.
 *
 * @module
 */
import type { ErrorEnvelope } from "../../../ports/errors.ts";
import type { ToolRegistry } from "../../../kernel/registry.ts";
import type { ToolResult } from "../../../kernel/result.ts";
import type { Point, Rect } from "../../../ports/geometry.ts";
import type { DesktopObservation } from "../../../ports/input.ts";
import type { DisplayInfo } from "../../../ports/screen.ts";
import type { WindowInfo } from "../../../ports/windows.ts";
import { fromDriverFailure } from "./errors.ts";

/** Who runs a call: the registry, the connection's ComputerService lease, cancellation. */
export interface InputScope {
  registry: ToolRegistry;
  lease: string;
  signal: AbortSignal;
}

/** A registered screenshot's geometry. */
export interface ScreenshotGeometry {
  id: string;
  windowId: number | null;
  displayId: string;
  /** The area the image shows, in screen points at capture time. */
  bounds: Rect;
  windowOrigin: { x: number; y: number } | null;
  /** The whole window or display it was cut from. */
  sourceBounds: Rect;
  imageWidth: number;
  imageHeight: number;
}

/** Runs a tool for the connection; a failure becomes the mapped gRPC error. */
export async function callTool(
  scope: InputScope,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolResult> {
  const result = await scope.registry.call(name, args, {
    lease: scope.lease,
    transport: "grpc",
    signal: scope.signal,
  });
  if (result.isError) throw fromDriverFailure(result.structuredContent as ErrorEnvelope | undefined);
  return result;
}

async function context(scope: InputScope, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  return (await callTool(scope, "computer_context", args)).structuredContent ?? {};
}

interface WindowRow {
  window_id: number;
  pid: number | null;
  app_name: string;
  title: string;
  bounds: Rect;
}

function windowOf(row: WindowRow | null | undefined): WindowInfo | null {
  if (!row) return null;
  return {
    windowId: row.window_id,
    pid: row.pid,
    appName: row.app_name,
    title: row.title,
    bounds: row.bounds,
    isOnScreen: true,
    zIndex: null,
  };
}

/** A window by id, or null when it does not exist. */
export async function readWindow(scope: InputScope, windowId: number): Promise<WindowInfo | null> {
  return windowOf((await context(scope, { window_id: windowId })).window as WindowRow | null);
}

/** The active window, or null. */
export async function readActiveWindow(scope: InputScope): Promise<WindowInfo | null> {
  return windowOf((await context(scope, { active_window: true })).active_window as WindowRow | null);
}

/** Every display. */
export async function readDisplays(scope: InputScope): Promise<DisplayInfo[]> {
  const rows = (await context(scope, { displays: true })).displays as {
    id: string;
    name: string;
    primary: boolean;
    bounds: Rect;
    native_width: number;
    native_height: number;
    scale_factor: number;
    refresh_rate_hz: number;
  }[];
  return rows.map((d) => ({
    id: d.id,
    name: d.name,
    primary: d.primary,
    bounds: d.bounds,
    nativeWidth: d.native_width,
    nativeHeight: d.native_height,
    scaleFactor: d.scale_factor,
    refreshRateHz: d.refresh_rate_hz,
  }));
}

/** Where the pointer is. */
export async function readCursor(scope: InputScope): Promise<Point> {
  return (await context(scope, { cursor: true })).cursor as Point;
}

/** Focus, pointer and stacking now; null when the desktop cannot say. */
export async function readObservation(scope: InputScope): Promise<DesktopObservation | null> {
  try {
    const seen = (await context(scope, { observe: true })).observation as {
      active_window: number | null;
      focus_window: number | null;
      pointer: Point;
      stacking: number[];
    } | null;
    return seen && {
      activeWindow: seen.active_window,
      focusWindow: seen.focus_window,
      pointer: seen.pointer,
      stacking: seen.stacking,
    };
  } catch {
    return null;
  }
}

/** A registered screenshot's geometry, or null when the id is unknown or expired. */
export async function readScreenshot(scope: InputScope, id: string): Promise<ScreenshotGeometry | null> {
  const row = (await context(scope, { screenshot_id: id })).screenshot as {
    id: string;
    window_id: number | null;
    display_id: string;
    bounds: Rect;
    window_origin: { x: number; y: number } | null;
    source_bounds: Rect;
    image_width: number;
    image_height: number;
  } | null;
  return row && {
    id: row.id,
    windowId: row.window_id,
    displayId: row.display_id,
    bounds: row.bounds,
    windowOrigin: row.window_origin,
    sourceBounds: row.source_bounds,
    imageWidth: row.image_width,
    imageHeight: row.image_height,
  };
}
