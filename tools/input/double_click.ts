import { ActionResultSchema } from "../../src/core/action_result.ts";
import { defineTool } from "../../src/core/tool.ts";
import { clickInput, clickTool } from "./click.ts";

/** double_click: the click schema without button, count and modifier (contract.md §1.5). */
export const doubleClickInput = clickInput.omit({ button: true, count: true, modifier: true });

/** Double-click by element or pixel. */
export default defineTool({
  name: "double_click",
  title: "Double-click",
  description:
    "Double-click a target: an element_token from get_window_state (at the element's centre), or x, y pixels " +
    'of the latest get_window_state screenshot, or target {kind:"desktop"} with screen x, y (your pointer). ' +
    "Background (default) presses a private pointer that never moves yours, only where nothing covers the " +
    'point (AT-SPI has no double-click action); covered, it is refused. delivery_mode "foreground" fronts the ' +
    "window, double-clicks and restores the previous window.",
  group: "input",
  input: doubleClickInput,
  output: ActionResultSchema,
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  risk: "r1",
  capabilities: [
    "input.pointer.click",
    "input.pointer.click.double",
    "accessibility.element_tokens",
    "input.delivery_mode",
  ],
  run: (ctx, args) => clickTool(ctx, { ...args, button: "left", count: 2 }),
});
