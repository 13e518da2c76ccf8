import { z } from "../../src/lib/schema/mod.ts";
import type { ElementRow } from "../../src/engine/ax_tree.ts";
import { registerObservation } from "../../src/engine/window_observation.ts";
import { asDriverError } from "../../src/ports/errors.ts";
import { type ContentPart, imagePart } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import type { AxTree } from "../../src/ports/accessibility.ts";
import type { Rect } from "../../src/ports/geometry.ts";
import type { RawImage } from "../../src/ports/screen.ts";
import { pidParam, screenshotOutFileParam, sessionParam, windowIdParam } from "../_shared/params.ts";
import { encodeShot, writeOutFile } from "../_shared/screenshot.ts";
import { requireOwnedWindow } from "../_shared/window_target.ts";

const DEFAULT_MAX_ELEMENTS = 5000;

const ElementSchema = z.object({
  element_token: z.string(),
  role: z.string(),
  label: z.string(),
  value: z.string().optional(),
  selected: z.boolean().optional(),
  focused: z.boolean().optional(),
  actions: z.array(z.string()).optional(),
  frame: z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() }).optional()
    .describe("Screen points"),
  center: z.tuple([z.number(), z.number()]).optional().describe("Frame centre in pixels of this screenshot"),
});

/** Accessibility tree and screenshot of one window, in one call. */
export default defineTool({
  name: "get_window_state",
  title: "Get window state",
  description:
    'Tree and screenshot of a window in one call. Text: an outline with [index] per actionable element; structured: elements with element_token, frame (screen points), center (screenshot pixels). Off-screen subtrees (closed menus) fold to a line: expand:["h3"] or query lists them. Without query, replaces the window\'s tokens.',
  group: "windows",
  input: z.strictObject({
    pid: pidParam,
    window_id: windowIdParam,
    session: sessionParam,
    include_screenshot: z.boolean().default(true).describe("false: the tree only"),
    screenshot_out_file: screenshotOutFileParam,
    query: z.string().optional().describe(
      "Case-insensitive filter (folded lines too), with ancestors",
    ),
    expand: z.union([z.array(z.string()), z.literal("all")]).optional().describe(
      'Folded groups to list in full ("h1", ...), or "all"',
    ),
    max_elements: z.number().int().min(1).default(DEFAULT_MAX_ELEMENTS).describe(
      "Node budget (default 5000)",
    ),
    max_depth: z.number().int().min(1).optional().describe(
      "Do not descend below this depth (default unlimited)",
    ),
    capture_mode: z.enum(["ax", "vision"]).optional().describe("Deprecated and ignored"),
  }),
  output: z.object({
    window_id: z.number(),
    pid: z.number(),
    title: z.string(),
    bounds: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
    snapshot_id: z.string(),
    invalidated_snapshot_ids: z.array(z.string()),
    element_count: z.number().int(),
    total_element_count: z.number().int(),
    returned_element_count: z.number().int(),
    elements_complete: z.boolean(),
    truncated: z.boolean(),
    elements: z.array(ElementSchema).describe("The elements the outline shows (query and folding apply)"),
    role_actions: z.record(z.string(), z.array(z.string())).optional().describe(
      "Actions every element of a role has (left out of those elements)",
    ),
    degraded: z.boolean().optional(),
    degraded_reason: z.string().optional(),
    escalation: z.object({ recommended: z.enum(["px", "foreground"]), reason: z.string() }).optional(),
    screenshot_width: z.number().int().optional(),
    screenshot_height: z.number().int().optional(),
    screenshot_mime_type: z.literal("image/png").optional(),
    screenshot_id: z.string().optional(),
    screenshot_scale: z.number().optional().describe("Screenshot pixels per screen point"),
    screenshot_scale_changed_from: z.number().optional().describe(
      "The previous screenshot's scale: pixel points need coordinate_space (or screenshot_id) until the next one",
    ),
    screenshot_file_path: z.string().optional(),
    screenshot_error: z.object({ code: z.string(), message: z.string(), hint: z.string().optional() })
      .optional(),
  }),
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  risk: "r3",
  capabilities: ["accessibility.tree.read", "desktop.capture.window", "accessibility.element_tokens"],
  async run(ctx, args) {
    const window = await requireOwnedWindow(ctx, args.pid, args.window_id);
    const maxDepth = args.max_depth ?? Number.MAX_SAFE_INTEGER;
    // The capture is encoded while the tree is still arriving over D-Bus.
    const [treeResult, shotResult] = await Promise.allSettled([
      ctx.backend.accessibility.tree(
        args.pid,
        args.window_id,
        // Rows only for actionable elements: no object of another kind needs its frame or actions.
        { maxNodes: args.max_elements, maxDepth, windowBounds: window.bounds, actionableDetailsOnly: true },
        ctx.signal,
      ),
      args.include_screenshot
        ? ctx.backend.screen.captureWindow(args.window_id).then((captured) =>
          encodeWindowShot(ctx, captured, args.window_id)
        )
        : Promise.resolve(null),
    ]);
    const tree: AxTree = treeResult.status === "fulfilled"
      ? treeResult.value
      : { nodes: [], truncated: false, error: asDriverError(treeResult.reason).message };

    const { snapshot, invalidated, shaped } = registerObservation(ctx, args.pid, args.window_id, tree, {
      maxElements: args.max_elements,
      maxDepth,
      query: args.query,
      expand: args.expand,
    });
    const truncated = tree.truncated || shaped.truncated;
    // The window's size when the back end counted past the budget, else what was read.
    const total = Math.max(tree.totalNodes ?? 0, shaped.nodeCount);
    const structured: Record<string, unknown> = {
      window_id: args.window_id,
      pid: args.pid,
      title: window.title,
      bounds: window.bounds,
      snapshot_id: snapshot.id,
      invalidated_snapshot_ids: invalidated,
      element_count: shaped.elements.length,
      total_element_count: total,
      // What `elements` holds (after query and folding); the window's size is total_element_count.
      returned_element_count: shaped.shown.length,
      elements_complete: !truncated && tree.error === null,
      truncated,
      elements: shaped.shown,
    };
    if (Object.keys(shaped.roleActions).length) structured.role_actions = shaped.roleActions;
    if (shaped.elements.length === 0) {
      structured.degraded = true;
      structured.degraded_reason = tree.error
        ? `atspi_walk_failed: ${tree.error}`
        : "atspi_tree_empty: the accessibility tree of this window has no actionable elements " +
          "(bridge off, app not on the session bus, or a canvas)";
      structured.escalation = {
        recommended: "px",
        reason: "act by pixel on the screenshot of this response",
      };
    }

    const shown = shaped.shown.length === shaped.elements.length ? "" : ` (${shaped.shown.length} shown)`;
    let header = `window_id=${args.window_id} pid=${args.pid} snapshot_id=${snapshot.id} ` +
      `elements=${shaped.elements.length}${shown}` +
      (truncated ? truncation(shaped.emittedNodeCount, total) : "") +
      (structured.degraded ? " (degraded)" : "");

    const content: ContentPart[] = [];
    if (shotResult.status === "rejected") {
      const error = asDriverError(shotResult.reason);
      structured.screenshot_error = { code: error.code, message: error.message, hint: error.data.hint };
    } else if (shotResult.value) {
      const encoded = shotResult.value;
      const capture = encoded.capture;
      const scale = encoded.width / capture.bounds.width;
      Object.assign(structured, {
        screenshot_width: encoded.width,
        screenshot_height: encoded.height,
        screenshot_mime_type: "image/png",
        screenshot_id: capture.id,
        screenshot_scale: scale,
      });
      addCenters(shaped.shown, capture.bounds, scale);
      header += ` screenshot_id=${capture.id} ${encoded.width}x${encoded.height}px scale=${round(scale)}`;
      if (capture.previousScale !== undefined) {
        structured.screenshot_scale_changed_from = capture.previousScale;
        header += ` (was ${round(capture.previousScale)}: give pixel points a coordinate_space)`;
      }
      if (args.screenshot_out_file) {
        structured.screenshot_file_path = await writeOutFile(args.screenshot_out_file, encoded.png);
      } else {
        content.push(imagePart(encoded.png, "image/png"));
      }
    }
    content.unshift({ type: "text", text: `${header}\n\n${shaped.markdown}` });
    return { content, structuredContent: structured };
  },
});

/** The header's note on a cut tree: how much was left out and how to get it. */
function truncation(shown: number, total: number): string {
  return total > shown
    ? ` (truncated: ${shown} of ${total} nodes, ${
      total - shown
    } left out; raise max_elements to ${total} for all)`
    : " (truncated: raise max_elements or max_depth)";
}

/** Each element's frame centre in pixels of the screenshot of `bounds` taken at `scale`. */
function addCenters(rows: ElementRow[], bounds: Rect, scale: number): void {
  for (const row of rows) {
    if (!row.frame) continue;
    row.center = [
      Math.round((row.frame.x + row.frame.w / 2 - bounds.x) * scale),
      Math.round((row.frame.y + row.frame.h / 2 - bounds.y) * scale),
    ];
  }
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

function encodeWindowShot(
  ctx: Parameters<typeof encodeShot>[0],
  captured: { image: RawImage; bounds: Rect },
  windowId: number,
) {
  return encodeShot(
    ctx,
    captured.image,
    {
      kind: "window",
      windowId,
      displayId: "primary",
      bounds: captured.bounds,
      windowOrigin: { x: captured.bounds.x, y: captured.bounds.y },
    },
    ctx.state.config.values.max_image_dimension,
  );
}
