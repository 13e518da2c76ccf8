import { z } from "../../src/lib/schema/mod.ts";
import { ActionResultSchema } from "../../src/engine/action_result.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { keyTargetFields, runKeys } from "./_keys_tool.ts";

/** Trailing agent-protocol closing tags some models leak into text (the reference strips them too). */
const TRAILING_TAGS = /(<\/(?:parameter|invoke|antml:[a-z_]+|function_calls)>\s*)+$/;

/** Most characters one call types (at the pace an app takes keys, well under a minute). */
const MAX_TEXT = 20_000;
/** Longest time one call may spend waiting between keystrokes. */
const MAX_PACED_MS = 60_000;

/** Text into a field: accessibility insert first, else keystrokes. */
export default defineTool({
  name: "type_text",
  title: "Type text",
  description:
    "Type any Unicode text. element_token (background): inserted by accessibility, newlines as characters (the result says so). Else keys (x, y or element clicked first), newlines Enter. confirmed when the field's text is read back. Cancelled: stops at once, says what was sent.",
  group: "input",
  input: z.strictObject({
    text: z.string().min(1).max(MAX_TEXT).describe(`Up to ${MAX_TEXT} characters`),
    delay_ms: z.number().int().min(0).max(1000).optional().describe(
      "Delay between keystrokes, also into an element_token; characters x delay_ms < 60 s",
    ),
    ...keyTargetFields,
  }).refine((args) => [...args.text].length * (args.delay_ms ?? 0) <= MAX_PACED_MS, {
    path: ["delay_ms"],
    message: `text length x delay_ms must stay under ${
      MAX_PACED_MS / 1000
    } s: split the text or lower delay_ms`,
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
