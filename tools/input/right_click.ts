import { ActionResultSchema } from "../../src/core/action_result.ts";
import { defineTool } from "../../src/core/tool.ts";
import { clickInput, clickTool } from "./click.ts";

/** right_click: the click schema without button and count (contract.md §1.5). */
export const rightClickInput = clickInput.omit({ button: true, count: true });

/** Right-click (context menu) by element or pixel. */
export default defineTool({
  name: "right_click",
  title: "Right-click",
  description:
    "Right-click a target (usually opens a context menu): an element_token from get_window_state (at the " +
    "element's centre), or x, y pixels of the latest get_window_state screenshot, or target " +
    '{kind:"desktop"} with screen x, y (your pointer); modifier holds keys meanwhile. Background (default) ' +
    "presses a private pointer that never moves yours, only where nothing covers the point (AT-SPI has no " +
    'right-click action); covered, it is refused. delivery_mode "foreground" fronts the window, clicks and ' +
    "restores the previous window. An open menu takes the next input: close it with Escape or a choice.",
  group: "input",
  input: rightClickInput,
  output: ActionResultSchema,
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  risk: "r1",
  capabilities: [
    "input.pointer.click",
    "input.pointer.click.right",
    "accessibility.element_tokens",
    "input.delivery_mode",
  ],
  run: (ctx, args) => clickTool(ctx, { ...args, button: "right", count: 1 }),
});
