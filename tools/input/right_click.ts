import { ActionResultSchema } from "../../src/engine/action_result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { clickInput, clickTool } from "./click.ts";

/** right_click: the click schema without button and count (contract.md §1.5). */
export const rightClickInput = clickInput.omit({ button: true, count: true });

/** Right-click (context menu) by element or pixel. */
export default defineTool({
  name: "right_click",
  title: "Right-click",
  description:
    "Right-click an element (at its centre) or x, y; usually opens a context menu, which takes the next input (close it with Escape or a choice). Always by pixel, on the private pointer (AT-SPI has no right-click).",
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
