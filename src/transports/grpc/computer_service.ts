/**
 * cua.env.v1.ComputerService over the tool registry. Input and clipboard RPCs are
 * calls of the same tools MCP agents use (click, type_text, clipboard_write, ...),
 * in a per-connection ComputerService lease; Screenshot, GetCursorPosition and
 * ListDisplays read the back end directly (read-only).
 *
 * @module
 */
import { create } from "@bufbuild/protobuf";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import type { DriverError } from "../../core/errors.ts";
import type { ToolRegistry } from "../../core/registry.ts";
import type { WindowInfo } from "../../platform/types.ts";
import { ClipboardService } from "./clipboard.ts";
import { computerLeaseOf } from "./context.ts";
import { CaptureSources, type ConversionContext, resolveWindow } from "./coordinates.ts";
import type { InputScope } from "./delivery.ts";
import { DisplaySchema, type WindowRef } from "./gen/cua/env/v1/common_pb.ts";
import { type ComputerService, InputTargetSchema } from "./gen/cua/env/v1/computer_pb.ts";
import { performKeyboard } from "./keyboard.ts";
import { fromDriverFailure } from "./errors.ts";
import { performPointer } from "./pointer.ts";
import { mostOverlap, takeScreenshot } from "./screenshot.ts";

/** Builds the ComputerService implementation over a registry. */
export function computerService(registry: ToolRegistry): ServiceImpl<typeof ComputerService> {
  const sources = new CaptureSources();
  const clipboard = new ClipboardService();
  const scopeOf = (ctx: HandlerContext): InputScope => ({
    registry,
    lease: computerLeaseOf(ctx),
    signal: ctx.signal,
  });
  const windowOf = async (ref: WindowRef | undefined): Promise<WindowInfo | null> =>
    ref ? await resolveWindow(registry.backend, ref, "target.window") : null;
  /**
   * RPCs that read the backend directly pass the same authorization check as the
   * tool they stand for, so no transport reaches past the launcher's grant.
   */
  const authorizeAs = async (ctx: HandlerContext, toolName: string, args: Record<string, unknown> = {}) => {
    const session = registry.state.sessions.resolve(computerLeaseOf(ctx), "grpc", null);
    try {
      await registry.authorize(registry.get(toolName)!, args, session);
    } catch (error) {
      throw fromDriverFailure(error as DriverError);
    }
    return session;
  };

  return {
    async screenshot(request, ctx) {
      const window = request.source.case === "window" ? await windowOf(request.source.value) : null;
      const session = window
        ? await authorizeAs(ctx, "get_window_state", { pid: window.pid ?? 0, window_id: window.windowId })
        : await authorizeAs(ctx, "get_desktop_state");
      return await takeScreenshot(registry, sources, session.id, request);
    },
    async pointer(request, ctx) {
      const target = request.target ?? create(InputTargetSchema);
      const conversion: ConversionContext = {
        backend: registry.backend,
        target,
        window: await windowOf(target.window),
        captures: registry.state.captures,
        sources,
      };
      return await performPointer(scopeOf(ctx), conversion, request);
    },
    async keyboard(request, ctx) {
      return await performKeyboard(scopeOf(ctx), await windowOf(request.target?.window), request);
    },
    async getClipboard(_request, ctx) {
      return await clipboard.get(scopeOf(ctx));
    },
    async setClipboard(request, ctx) {
      return await clipboard.set(scopeOf(ctx), request.content);
    },
    async getCursorPosition(_request, ctx) {
      await authorizeAs(ctx, "get_cursor_position");
      const position = await registry.backend.screen.cursorPosition();
      const displays = await registry.backend.screen.displays();
      const display = mostOverlap(displays, { x: position.x, y: position.y, width: 1, height: 1 });
      return { position: { x: position.x, y: position.y }, displayId: display?.id ?? "" };
    },
    async listDisplays(_request, ctx) {
      await authorizeAs(ctx, "get_screen_size");
      const displays = await registry.backend.screen.displays();
      const ordered = [...displays.filter((d) => d.primary), ...displays.filter((d) => !d.primary)];
      return {
        displays: ordered.map((d) =>
          create(DisplaySchema, {
            id: d.id,
            name: d.name,
            primary: d.primary,
            bounds: d.bounds,
            nativeSize: { width: d.nativeWidth, height: d.nativeHeight },
            scaleFactor: d.scaleFactor,
            refreshRateHz: d.refreshRateHz,
            rotationDegrees: 0,
          })
        ),
      };
    },
  };
}
