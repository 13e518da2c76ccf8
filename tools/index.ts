/**
 * Every tool by name, in `tools/list` order (the reference's Linux registration order), each
 * loaded on demand: a one-shot CLI call loads the one tool it runs and what that tool imports,
 * not the browser, recording, perception or gRPC code of the others. The literal list of
 * literal `import()`s keeps `deno compile` and `deno bundle` able to see every module.
 *
 * @module
 */
import type { AnyTool } from "../src/kernel/tool.ts";

/** Loads one tool module. */
export type ToolLoader = () => Promise<{ default: AnyTool }>;

/** Tool name to loader, in registration order. */
export const toolLoaders: Readonly<Record<string, ToolLoader>> = {
  list_apps: () => import("./apps/list_apps.ts"),
  list_windows: () => import("./windows/list_windows.ts"),
  get_window_state: () => import("./windows/get_window_state.ts"),
  verify_state: () => import("./accessibility/verify_state.ts"),
  launch_app: () => import("./apps/launch_app.ts"),
  kill_app: () => import("./apps/kill_app.ts"),
  bring_to_front: () => import("./windows/bring_to_front.ts"),
  set_window_frame: () => import("./windows/set_window_frame.ts"),
  invoke_menu: () => import("./accessibility/invoke_menu.ts"),
  click: () => import("./input/click.ts"),
  double_click: () => import("./input/double_click.ts"),
  right_click: () => import("./input/right_click.ts"),
  drag: () => import("./input/drag.ts"),
  mouse_button_down: () => import("./input/mouse_button_down.ts"),
  mouse_drag: () => import("./input/mouse_drag.ts"),
  mouse_button_up: () => import("./input/mouse_button_up.ts"),
  parallel_mouse_drag: () => import("./input/parallel_mouse_drag.ts"),
  type_text: () => import("./input/type_text.ts"),
  press_key: () => import("./input/press_key.ts"),
  hotkey: () => import("./input/hotkey.ts"),
  set_value: () => import("./input/set_value.ts"),
  scroll: () => import("./input/scroll.ts"),
  clipboard_read: () => import("./clipboard/clipboard_read.ts"),
  clipboard_write: () => import("./clipboard/clipboard_write.ts"),
  get_screen_size: () => import("./screen/get_screen_size.ts"),
  get_desktop_state: () => import("./screen/get_desktop_state.ts"),
  get_cursor_position: () => import("./screen/get_cursor_position.ts"),
  move_cursor: () => import("./input/move_cursor.ts"),
  run_actions: () => import("./input/run_actions.ts"),
  set_agent_cursor_enabled: () => import("./cursor/set_agent_cursor_enabled.ts"),
  set_agent_cursor_motion: () => import("./cursor/set_agent_cursor_motion.ts"),
  get_agent_cursor_state: () => import("./cursor/get_agent_cursor_state.ts"),
  set_agent_cursor_theme: () => import("./cursor/set_agent_cursor_theme.ts"),
  check_permissions: () => import("./system/check_permissions.ts"),
  health_report: () => import("./system/health_report.ts"),
  get_config: () => import("./system/get_config.ts"),
  set_config: () => import("./system/set_config.ts"),
  get_accessibility_tree: () => import("./accessibility/get_accessibility_tree.ts"),
  zoom: () => import("./screen/zoom.ts"),
  parse_visual_regions: () => import("./screen/parse_visual_regions.ts"),
  page: () => import("./browser/page.ts"),
  get_browser_state: () => import("./browser/get_browser_state.ts"),
  browser_prepare: () => import("./browser/browser_prepare.ts"),
  browser_navigate: () => import("./browser/browser_navigate.ts"),
  browser_click: () => import("./browser/browser_click.ts"),
  browser_type: () => import("./browser/browser_type.ts"),
  browser_dialog: () => import("./browser/browser_dialog.ts"),
  browser_set_input_files: () => import("./browser/browser_set_input_files.ts"),
  browser_download: () => import("./browser/browser_download.ts"),
  browser_pointer: () => import("./browser/browser_pointer.ts"),
  start_recording: () => import("./recording/start_recording.ts"),
  stop_recording: () => import("./recording/stop_recording.ts"),
  get_recording_state: () => import("./recording/get_recording_state.ts"),
  replay_trajectory: () => import("./recording/replay_trajectory.ts"),
  install_ffmpeg: () => import("./recording/install_ffmpeg.ts"),
  install_extension: () => import("./system/install_extension.ts"),
  start_session: () => import("./session/start_session.ts"),
  escalate_session: () => import("./session/escalate_session.ts"),
  get_session: () => import("./session/get_session.ts"),
  list_sessions: () => import("./session/list_sessions.ts"),
  get_session_state: () => import("./session/get_session_state.ts"),
  end_session: () => import("./session/end_session.ts"),
  check_for_update: () => import("./system/check_for_update.ts"),
  // Not in tools/list: the gRPC ComputerService calls them for its own RPCs.
  computer_screenshot: () => import("./computer/computer_screenshot.ts"),
  computer_context: () => import("./computer/computer_context.ts"),
  // Not in tools/list: a harness's stop switch (the live view and `cua-driver stop-input` too).
  stop_input: () => import("./system/stop_input.ts"),
};

/** Every tool name, in registration order. */
export const toolNames: readonly string[] = Object.keys(toolLoaders);

/** Loads one tool; undefined for an unknown name. */
export async function loadTool(name: string): Promise<AnyTool | undefined> {
  const load = Object.hasOwn(toolLoaders, name) ? toolLoaders[name] : undefined;
  return load ? (await load()).default : undefined;
}

/** Loads every tool, in registration order. */
export async function loadAllTools(): Promise<AnyTool[]> {
  return (await Promise.all(Object.values(toolLoaders).map((load) => load()))).map((m) => m.default);
}
