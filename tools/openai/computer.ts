/**
 * `computer`: OpenAI's computer tool as `--tools openai` serves it. One call runs a batch of the
 * tool's actions in order and answers with a screenshot of the screen after them (what a
 * `computer_call_output` carries). The batch's shape is checked before anything runs; each action's
 * points and names are checked when its turn comes. A batch stops at the first action that fails,
 * says which one and why, and runs nothing after it (the actions before it stay done).
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";
import { captureArea, encodeCapture } from "../../src/engine/capture_pipeline.ts";
import { asDriverError } from "../../src/ports/errors.ts";
import { WHOLE_SCREEN } from "../../src/features/permissions/authorizer.ts";
import { imagePart, type ToolResult } from "../../src/kernel/result.ts";
import { defineTool, type ToolContext } from "../../src/kernel/tool.ts";
import { phraseFor } from "../anthropic/_phrases.ts";
import { sessionScreen } from "../_shared/session_screen.ts";
import { computerAction, precheck, runComputerAction } from "./_actions.ts";

const phrase = phraseFor(["actions"]);

const step = z.object({
  index: z.number().int(),
  type: z.string(),
  result: z.record(z.string(), z.unknown()).nullable(),
});

async function screenshotPart(ctx: ToolContext) {
  const screen = await sessionScreen(ctx);
  const area = await captureArea(ctx, { source: { kind: "display", displayId: screen.display.id } });
  const shot = await encodeCapture(ctx, area.image, area.origin, { size: screen.shot, format: "png" });
  return { part: imagePart(shot.bytes, shot.mimeType), width: shot.width, height: shot.height };
}

export default defineTool({
  name: "computer",
  title: "computer",
  description:
    "OpenAI computer tool executor: runs `actions` (click, double_click, scroll, type, keypress, " +
    "move, drag, wait, screenshot) in order, x/y in pixels of the returned screenshot, and returns a " +
    "screenshot after them. Stops at the first failed action and says which.",
  group: "input",
  input: z.strictObject({ actions: z.array(computerAction).min(1).max(50) }),
  output: z.object({
    status: z.enum(["completed", "stopped"]),
    completed: z.number().int(),
    steps: z.array(step),
    failed: z.object({ index: z.number().int(), type: z.string(), code: z.string(), message: z.string() })
      .optional(),
    screenshot: z.object({ width: z.number().int(), height: z.number().int() }),
  }),
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  risk: "r3",
  capabilities: ["input.pointer.click", "input.keyboard.type", "desktop.capture.display", WHOLE_SCREEN],
  errorPhrase: phrase,
  vendorShape: true,
  async run(ctx, args): Promise<ToolResult> {
    const steps: z.output<typeof step>[] = [];
    let failed: { index: number; type: string; code: string; message: string } | undefined;
    for (const [index, action] of args.actions.entries()) {
      try {
        await precheck(ctx, action);
        steps.push({ index, type: action.type, result: await runComputerAction(ctx, action) });
      } catch (error) {
        const driverError = asDriverError(error);
        if (driverError.code === "aborted") throw driverError;
        failed = { index, type: action.type, code: driverError.code, message: phrase(driverError) };
        break;
      }
    }
    const shot = await screenshotPart(ctx);
    const text = failed
      ? `Action ${failed.index + 1} of ${args.actions.length} (${failed.type}) failed: ${failed.message} ` +
        `The actions after it were not run.`
      : `Ran ${steps.length} action${steps.length === 1 ? "" : "s"}.`;
    const structured = {
      status: failed ? "stopped" : "completed",
      completed: steps.length,
      steps,
      ...(failed ? { failed } : {}),
      screenshot: { width: shot.width, height: shot.height },
    };
    return {
      ...(failed ? { isError: true as const } : {}),
      content: [{ type: "text", text }, shot.part],
      structuredContent: structured,
    };
  },
});
