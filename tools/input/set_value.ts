import { z } from "../../src/lib/schema/mod.ts";
import { ActionResultSchema } from "../../src/engine/action_result.ts";
import { runAction } from "../../src/engine/run_action.ts";
import { setElementValue } from "../../src/engine/set_value.ts";
import { resolveTarget } from "../../src/engine/target.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { elementParams } from "../_shared/action_params.ts";
import { sessionParam } from "../_shared/params.ts";

/** An element's value through accessibility only, read back. */
export default defineTool({
  name: "set_value",
  title: "Set value",
  description:
    "Set an element's value through accessibility: a text field's text, a slider's or spin button's number, a combo box option by name. confirmed only when the read-back matches.",
  group: "input",
  input: z.strictObject({
    value: z.string().max(100_000),
    pid: z.number().int().min(1).optional(),
    window_id: z.number().int().min(1).optional(),
    ...elementParams,
    session: sessionParam,
  }),
  output: ActionResultSchema,
  hints: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  risk: "r1",
  capabilities: ["accessibility.value.set", "accessibility.element_tokens"],
  run(ctx, args) {
    return runAction(ctx, async () => {
      const target = await resolveTarget(ctx, args, { allowDesktop: false, allowElement: true });
      if (target.scope !== "window" || !target.element) {
        throw new DriverError(
          "invalid_arguments",
          "set_value needs an element_token (or element_index with snapshot_id)",
          {
            field: "element_token",
            hint: "take it from the latest get_window_state",
          },
        );
      }
      return await setElementValue(ctx, target, target.element.element, args.value);
    });
  },
});
