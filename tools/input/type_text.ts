import { z } from "zod";
import { ActionResultSchema } from "../../src/core/action_result.ts";
import { DriverError } from "../../src/core/errors.ts";
import { defineTool } from "../../src/core/tool.ts";
import { keyTargetFields, runKeys } from "./_keys_tool.ts";

/** Trailing agent-protocol closing tags some models leak into text (the reference strips them too). */
const TRAILING_TAGS = /(<\/(?:parameter|invoke|antml:[a-z_]+|function_calls)>\s*)+$/;

/** Text into a field: accessibility insert first, else keystrokes. */
export default defineTool({
  name: "type_text",
  title: "Type text",
  description:
    "Type any Unicode text (newlines are Enter). element_token of an editable field: inserted at the caret through accessibility. x, y: clicked to focus, then typed on the private keyboard. confirmed when the field's text is read back.",
  group: "input",
  input: z.strictObject({
    text: z.string().min(1).max(100_000),
    delay_ms: z.number().int().min(0).max(1000).optional().describe(
      "Delay between keystrokes (default none)",
    ),
    ...keyTargetFields,
  }),
  output: ActionResultSchema,
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  risk: "r1",
  capabilities: [
    "input.keyboard.type",
    "input.keyboard.type.terminal_safe",
    "accessibility.element_tokens",
    "input.delivery_mode",
  ],
  run(ctx, args) {
    return runKeys(ctx, args, () => {
      const text = args.text.replace(TRAILING_TAGS, "");
      if (text === "") throw new DriverError("invalid_arguments", "Nothing to type", { field: "text" });
      return { kind: "text", text, delayMs: args.delay_ms };
    });
  },
});
