/**
 * Every tool, in `tools/list` order (the reference's Linux registration order).
 * An explicit list keeps `deno compile` happy and the order deterministic.
 *
 * @module
 */
import type { AnyTool } from "../src/core/tool.ts";
import get_accessibility_tree from "./accessibility/get_accessibility_tree.ts";
import invoke_menu from "./accessibility/invoke_menu.ts";
import verify_state from "./accessibility/verify_state.ts";
import kill_app from "./apps/kill_app.ts";
import browser_click from "./browser/browser_click.ts";
import browser_dialog from "./browser/browser_dialog.ts";
import browser_download from "./browser/browser_download.ts";
import browser_navigate from "./browser/browser_navigate.ts";
import browser_pointer from "./browser/browser_pointer.ts";
import browser_prepare from "./browser/browser_prepare.ts";
import browser_set_input_files from "./browser/browser_set_input_files.ts";
import browser_type from "./browser/browser_type.ts";
import get_browser_state from "./browser/get_browser_state.ts";
import page from "./browser/page.ts";
import launch_app from "./apps/launch_app.ts";
import list_apps from "./apps/list_apps.ts";
import clipboard_read from "./clipboard/clipboard_read.ts";
import clipboard_write from "./clipboard/clipboard_write.ts";
import get_agent_cursor_state from "./cursor/get_agent_cursor_state.ts";
import set_agent_cursor_enabled from "./cursor/set_agent_cursor_enabled.ts";
import set_agent_cursor_motion from "./cursor/set_agent_cursor_motion.ts";
import set_agent_cursor_theme from "./cursor/set_agent_cursor_theme.ts";
import get_cursor_position from "./screen/get_cursor_position.ts";
import get_desktop_state from "./screen/get_desktop_state.ts";
import get_screen_size from "./screen/get_screen_size.ts";
import zoom from "./screen/zoom.ts";
import parse_visual_regions from "./screen/parse_visual_regions.ts";
import click from "./input/click.ts";
import double_click from "./input/double_click.ts";
import drag from "./input/drag.ts";
import mouse_button_down from "./input/mouse_button_down.ts";
import mouse_button_up from "./input/mouse_button_up.ts";
import mouse_drag from "./input/mouse_drag.ts";
import move_cursor from "./input/move_cursor.ts";
import parallel_mouse_drag from "./input/parallel_mouse_drag.ts";
import right_click from "./input/right_click.ts";
import scroll from "./input/scroll.ts";
import hotkey from "./input/hotkey.ts";
import press_key from "./input/press_key.ts";
import run_actions from "./input/run_actions.ts";
import set_value from "./input/set_value.ts";
import type_text from "./input/type_text.ts";
import get_recording_state from "./recording/get_recording_state.ts";
import install_ffmpeg from "./recording/install_ffmpeg.ts";
import replay_trajectory from "./recording/replay_trajectory.ts";
import start_recording from "./recording/start_recording.ts";
import stop_recording from "./recording/stop_recording.ts";
import end_session from "./session/end_session.ts";
import escalate_session from "./session/escalate_session.ts";
import get_session from "./session/get_session.ts";
import get_session_state from "./session/get_session_state.ts";
import list_sessions from "./session/list_sessions.ts";
import start_session from "./session/start_session.ts";
import check_for_update from "./system/check_for_update.ts";
import check_permissions from "./system/check_permissions.ts";
import get_config from "./system/get_config.ts";
import health_report from "./system/health_report.ts";
import install_extension from "./system/install_extension.ts";
import set_config from "./system/set_config.ts";
import bring_to_front from "./windows/bring_to_front.ts";
import get_window_state from "./windows/get_window_state.ts";
import list_windows from "./windows/list_windows.ts";
import set_window_frame from "./windows/set_window_frame.ts";

/** All tools in registration order. */
export const allTools: readonly AnyTool[] = [
  list_apps,
  list_windows,
  get_window_state,
  verify_state,
  launch_app,
  kill_app,
  bring_to_front,
  set_window_frame,
  invoke_menu,
  click,
  double_click,
  right_click,
  drag,
  mouse_button_down,
  mouse_drag,
  mouse_button_up,
  parallel_mouse_drag,
  type_text,
  press_key,
  hotkey,
  set_value,
  scroll,
  clipboard_read,
  clipboard_write,
  get_screen_size,
  get_desktop_state,
  get_cursor_position,
  move_cursor,
  run_actions,
  set_agent_cursor_enabled,
  set_agent_cursor_motion,
  get_agent_cursor_state,
  set_agent_cursor_theme,
  check_permissions,
  health_report,
  get_config,
  set_config,
  get_accessibility_tree,
  zoom,
  parse_visual_regions,
  page,
  get_browser_state,
  browser_prepare,
  browser_navigate,
  browser_click,
  browser_type,
  browser_dialog,
  browser_set_input_files,
  browser_download,
  browser_pointer,
  start_recording,
  stop_recording,
  get_recording_state,
  replay_trajectory,
  install_ffmpeg,
  install_extension,
  start_session,
  escalate_session,
  get_session,
  list_sessions,
  get_session_state,
  end_session,
  check_for_update,
];
