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
  description: "Type text. With an element_token of an editable field the text is inserted through " +
    "accessibility at the caret (background, read back). With x, y the point is clicked first to focus a " +
    "field, then keystrokes go through a private keyboard (background) or inside a foreground transaction. " +
    "Any Unicode text is typed (characters missing from the keymap use a spare keycode). Newlines are Enter. " +
    "effect is confirmed when the focused field's text was read back with the typed text in it.",
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
