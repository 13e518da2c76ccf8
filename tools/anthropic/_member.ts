/**
 * What every Anthropic computer toolset member shares: the vendor's argument fragments, running one
 * of the driver's own tools (its ladder and read-back) for the member, the one line that says what
 * was confirmed, and the member's definition with the fixed error phrases.
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";
import { ActionResultSchema } from "../../src/engine/action_result.ts";
import { DriverError, type DriverErrorCode, ERROR_CODES } from "../../src/ports/errors.ts";
import type { ToolResult } from "../../src/kernel/result.ts";
import {
  type AnyTool,
  defineTool,
  type RiskClass,
  type ToolContext,
  type ToolDefinition,
} from "../../src/kernel/tool.ts";
import { WHOLE_SCREEN } from "../../src/features/permissions/authorizer.ts";
import { parseModifiers } from "../../src/engine/modifiers.ts";
import type { Point } from "../../src/ports/geometry.ts";
import { sessionScreen, toScreen } from "../_shared/session_screen.ts";
import { phraseFor } from "./_phrases.ts";

/** `[x, y]` in pixels of the full screenshot. */
export const coordinateParam = z.array(z.number()).min(2).max(2).describe(
  "(x, y): x pixels from the left edge, y pixels from the top edge.",
);

/** The key combination held during a pointer action. */
export const holdTextParam = z.string().min(1).max(64).nullable().optional().describe(
  'Optional key combination to hold down during this action (e.g. "ctrl", "shift", "ctrl+shift").',
);

/**
 * The screen point of an optional `[x, y]` of the screenshot: where the cursor is when it is omitted.
 *
 * @throws {DriverError} `coordinate_out_of_bounds` outside the screenshot.
 */
export async function pointOrCursor(
  ctx: ToolContext,
  coordinate: readonly number[] | null | undefined,
): Promise<Point> {
  if (coordinate) return toScreen(await sessionScreen(ctx), coordinate);
  const { x, y } = await ctx.backend.screen.cursorPosition();
  return { x, y };
}

/**
 * The modifiers of a `"ctrl+shift"` combination.
 *
 * @throws {DriverError} `invalid_arguments` (field `text`) for an empty part.
 */
export function modifiersOf(text: string | null | undefined): string[] {
  if (text === undefined || text === null) return [];
  const parts = text.split("+").map((part) => part.trim());
  if (parts.some((part) => part === "")) {
    throw new DriverError("invalid_arguments", "A key combination has an empty part", { field: "text" });
  }
  try {
    return parseModifiers(parts);
  } catch (error) {
    throw new DriverError("invalid_arguments", (error as Error).message, { field: "text" });
  }
}

/**
 * Runs one of the driver's own tools for a member, in the member's call (its session, lock and
 * cancellation): its schema checks the arguments the member built, and a failure it returns is
 * thrown as the error it reports.
 */
export async function runOwn(
  ctx: ToolContext,
  tool: AnyTool,
  args: Record<string, unknown>,
): Promise<ToolResult> {
  const parsed = tool.input.safeParse(args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DriverError("invalid_arguments", `Invalid arguments for ${tool.name}: ${issue.message}`, {
      field: issue.path.join("."),
    });
  }
  const result = await tool.run(ctx, parsed.data);
  if (result.isError) {
    const code = String(result.structuredContent?.code ?? "internal_error");
    const known = (ERROR_CODES as readonly string[]).includes(code)
      ? code as DriverErrorCode
      : "internal_error";
    throw new DriverError(known, String(result.structuredContent?.message ?? "failed"));
  }
  return result;
}

/**
 * The member's reply for an action: the driver's ActionResult as the structured result, and one
 * line of fixed words saying what it confirmed (the line the SDK's member returns after its own
 * acknowledgment).
 */
export function actionReply(own: ToolResult): ToolResult {
  const result = own.structuredContent as {
    effect: string;
    evidence?: { kind: string }[];
    delivery?: { delivered_count?: number };
  };
  return { content: [{ type: "text", text: effectLine(result) }], structuredContent: own.structuredContent };
}

/** One line of fixed words for an ActionResult's effect. */
export function effectLine(result: {
  effect: string;
  evidence?: { kind: string }[];
  delivery?: { delivered_count?: number };
}): string {
  switch (result.effect) {
    case "confirmed":
      return `Effect: confirmed (read back: ${(result.evidence ?? []).map((e) => e.kind).join(", ")}).`;
    case "partial":
      return `Effect: partial (${result.delivery?.delivered_count ?? 0} delivered).`;
    case "suspected_noop":
      return "Effect: suspected_noop (delivered; nothing the app shows changed).";
    default:
      return "Effect: unverifiable (delivered; the app exposes no read-back).";
  }
}

/** What a member declares. */
export interface MemberSpec<I extends z.AnySchema, O extends z.AnySchema> {
  name: string;
  description: string;
  input: I;
  output?: O;
  readOnly?: boolean;
  risk?: RiskClass;
  capabilities: readonly string[];
  run(ctx: ToolContext, args: z.output<I>): Promise<ToolResult>;
}

/** A member of `computer_toolset_20260801` as a driver tool (its name is the member's). */
export function defineMember<I extends z.AnySchema, O extends z.AnySchema = typeof ActionResultSchema>(
  spec: MemberSpec<I, O>,
): ToolDefinition<I, O> {
  const shape = (spec.input as unknown as { shape?: Record<string, unknown> }).shape ?? {};
  const readOnly = spec.readOnly ?? false;
  return defineTool({
    name: spec.name,
    title: spec.name,
    description: spec.description,
    group: readOnly ? "screen" : "input",
    input: spec.input,
    output: (spec.output ?? ActionResultSchema) as O,
    hints: { readOnly, destructive: !readOnly, idempotent: readOnly, openWorld: !readOnly },
    risk: spec.risk ?? (readOnly ? "r2" : "r1"),
    // Every member acts on (or reads) the whole screen: bounded manifests must grant the desktop.
    capabilities: [...spec.capabilities, WHOLE_SCREEN],
    errorPhrase: phraseFor(Object.keys(shape)),
    vendorShape: true,
    run: spec.run,
  });
}
