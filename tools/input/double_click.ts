import { ActionResultSchema } from "../../src/engine/action_result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { clickInput, clickTool } from "./click.ts";

/** double_click: the click schema without button, count and modifier (contract.md §1.5). */
export const doubleClickInput = clickInput.omit({ button: true, count: true, modifier: true });

/** Double-click by element or pixel. */
export default defineTool({
  name: "double_click",
  title: "Double-click",
  description:
    "Double-click an element (at its centre) or x, y with the private pointer (AT-SPI has no double-click).",
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
