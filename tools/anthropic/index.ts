/**
 * The members of Anthropic's `computer_toolset_20260801`, in the SDK's order: the tools
 * `--tools anthropic` serves (each a file here, on the driver's own tools and read-back).
 *
 * @module
 */
import type { AnyTool } from "../../src/kernel/tool.ts";

/** Member name to loader. */
export const anthropicLoaders: Readonly<Record<string, () => Promise<{ default: AnyTool }>>> = {
  key: () => import("./key.ts"),
  hold_key: () => import("./hold_key.ts"),
  type: () => import("./type.ts"),
  cursor_position: () => import("./cursor_position.ts"),
  mouse_move: () => import("./mouse_move.ts"),
  left_mouse_down: () => import("./left_mouse_down.ts"),
  left_mouse_up: () => import("./left_mouse_up.ts"),
  left_click: () => import("./left_click.ts"),
  left_click_drag: () => import("./left_click_drag.ts"),
  right_click: () => import("./right_click.ts"),
  middle_click: () => import("./middle_click.ts"),
  double_click: () => import("./double_click.ts"),
  triple_click: () => import("./triple_click.ts"),
  scroll: () => import("./scroll.ts"),
  wait: () => import("./wait.ts"),
  screenshot: () => import("./screenshot.ts"),
  zoom: () => import("./zoom.ts"),
};
