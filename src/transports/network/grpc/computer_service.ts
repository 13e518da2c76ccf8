/**
 * cua.env.v1.ComputerService over the tool registry: every RPC is calls of tools, in a
 * per-connection ComputerService lease, so each is authorized, runs in the connection's
 * session and is seen by call observers (the recorder). Input and clipboard RPCs call the
 * tools MCP agents use (click, type_text, clipboard_write, ...); Screenshot calls
 * `computer_screenshot`, and the geometry reads behind every RPC `computer_context`.
 *
 * @module
 */
import { create } from "@bufbuild/protobuf";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { mostOverlap } from "../../../engine/capture_pipeline.ts";
import type { ToolRegistry } from "../../../kernel/registry.ts";
import type { WindowInfo } from "../../../ports/windows.ts";
import { ClipboardService } from "./clipboard.ts";
import { computerLeaseOf } from "./context.ts";
import { type ConversionContext, resolveWindow } from "./coordinates.ts";
import { type InputScope, readCursor, readDisplays } from "./geometry.ts";
import { DisplaySchema, type WindowRef } from "./gen/cua/env/v1/common_pb.ts";
import { type ComputerService, InputTargetSchema } from "./gen/cua/env/v1/computer_pb.ts";
import { performKeyboard } from "./keyboard.ts";
import { performPointer } from "./pointer.ts";
import { takeScreenshot } from "./screenshot.ts";

/** Builds the ComputerService implementation over a registry. */
export function computerService(registry: ToolRegistry): ServiceImpl<typeof ComputerService> {
  const clipboard = new ClipboardService();
  const scopeOf = (ctx: HandlerContext): InputScope => ({
    registry,
    lease: computerLeaseOf(ctx),
    signal: ctx.signal,
  });
  const windowOf = async (scope: InputScope, ref: WindowRef | undefined): Promise<WindowInfo | null> =>
    ref ? await resolveWindow(scope, ref, "target.window") : null;

  return {
    async screenshot(request, ctx) {
      return await takeScreenshot(scopeOf(ctx), request);
    },
    async pointer(request, ctx) {
      const scope = scopeOf(ctx);
      const target = request.target ?? create(InputTargetSchema);
      const conversion: ConversionContext = { scope, target, window: await windowOf(scope, target.window) };
      return await performPointer(scope, conversion, request);
    },
    async keyboard(request, ctx) {
      const scope = scopeOf(ctx);
      return await performKeyboard(scope, await windowOf(scope, request.target?.window), request);
    },
    async getClipboard(_request, ctx) {
      return await clipboard.get(scopeOf(ctx));
    },
    async setClipboard(request, ctx) {
      return await clipboard.set(scopeOf(ctx), request.content);
    },
    async getCursorPosition(_request, ctx) {
      const scope = scopeOf(ctx);
      const position = await readCursor(scope);
      const displays = await readDisplays(scope);
      const display = mostOverlap(displays, { x: position.x, y: position.y, width: 1, height: 1 });
      return { position: { x: position.x, y: position.y }, displayId: display?.id ?? "" };
    },
    async listDisplays(_request, ctx) {
      const displays = await readDisplays(scopeOf(ctx));
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
