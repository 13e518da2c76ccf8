import { z } from "zod";
import { shapeTree } from "../../src/core/ax_tree.ts";
import { asDriverError } from "../../src/core/errors.ts";
import { type ContentPart, imagePart } from "../../src/core/result.ts";
import { defineTool } from "../../src/core/tool.ts";
import type { AxTree, RawImage, Rect } from "../../src/platform/types.ts";
import { pidParam, screenshotOutFileParam, sessionParam, windowIdParam } from "../_shared/params.ts";
import { encodeShot, writeOutFile } from "../_shared/screenshot.ts";
import { requireOwnedWindow } from "../_shared/window_target.ts";

const DEFAULT_MAX_ELEMENTS = 5000;

const ElementSchema = z.object({
  element_index: z.number().int(),
  element_token: z.string(),
  role: z.string(),
  depth: z.number().int(),
  label: z.string(),
  value: z.string().optional(),
  enabled: z.boolean().optional(),
  selected: z.boolean().optional(),
  focused: z.boolean().optional(),
  parent_index: z.number().int().optional(),
  actions: z.array(z.string()).optional(),
  frame: z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() }).optional(),
});

/** Accessibility tree and screenshot of one window, in one call. */
export default defineTool({
  name: "get_window_state",
  title: "Get window state",
  description: "Snapshot a window: the accessibility tree plus a screenshot, in one call. The tree says " +
    "what is actionable (roles, labels, an element_token per actionable element); the screenshot shows " +
    "which one and what the tree omits. Each call replaces the previous snapshot of the window " +
    "(invalidated_snapshot_ids lists the ids it replaced; their tokens are then stale). " +
    "include_screenshot:false returns the tree only. When the tree is empty the reply says degraded:true: " +
    "act by pixel on the screenshot instead. A failed capture never loses the tree (see screenshot_error).",
  group: "windows",
  input: z.strictObject({
    pid: pidParam,
    window_id: windowIdParam,
    session: sessionParam,
    include_screenshot: z.boolean().default(true).describe("Default true; false returns the tree only"),
    screenshot_out_file: screenshotOutFileParam,
    query: z.string().optional().describe(
      "Case-insensitive filter for tree_markdown; matching lines keep their ancestors; indices are unchanged",
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
    tree_markdown: z.string(),
    elements: z.array(ElementSchema),
    degraded: z.boolean().optional(),
    degraded_reason: z.string().optional(),
    escalation: z.object({ recommended: z.enum(["px", "foreground"]), reason: z.string() }).optional(),
    screenshot_width: z.number().int().optional(),
    screenshot_height: z.number().int().optional(),
    screenshot_mime_type: z.literal("image/png").optional(),
    screenshot_id: z.string().optional(),
    screenshot_scale: z.number().optional().describe("Screenshot pixels per screen point"),
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
        { maxNodes: args.max_elements, maxDepth },
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

    const snapshotId = ctx.state.snapshots.reserveId();
    const shaped = shapeTree(tree.nodes, {
      snapshotId,
      maxElements: args.max_elements,
      maxDepth,
      query: args.query,
    });
    const { snapshot, invalidated } = ctx.state.snapshots.register(
      args.pid,
      args.window_id,
      shaped.elements.map((row, i) => ({
        index: row.element_index,
        role: tree.nodes[shaped.elementNodes[i]].role,
        platformRole: row.role,
        label: row.label,
        ref: tree.nodes[shaped.elementNodes[i]].ref,
        frame: tree.nodes[shaped.elementNodes[i]].frame,
        actions: tree.nodes[shaped.elementNodes[i]].actions,
        interfaces: tree.nodes[shaped.elementNodes[i]].interfaces,
      })),
      snapshotId,
      ctx.session.id,
    );
    const truncated = tree.truncated || shaped.truncated;
    const structured: Record<string, unknown> = {
      window_id: args.window_id,
      pid: args.pid,
      title: window.title,
      bounds: window.bounds,
      snapshot_id: snapshot.id,
      invalidated_snapshot_ids: invalidated,
      element_count: shaped.elements.length,
      total_element_count: shaped.nodeCount,
      returned_element_count: shaped.emittedNodeCount,
      elements_complete: !truncated && tree.error === null,
      truncated,
      tree_markdown: shaped.markdown,
      elements: shaped.elements,
    };
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

    const header = `window_id=${args.window_id} pid=${args.pid} elements=${shaped.elements.length}` +
      (truncated ? " (truncated)" : "") + (structured.degraded ? " (degraded)" : "");
    const content: ContentPart[] = [{ type: "text", text: `${header}\n\n${shaped.markdown}` }];

    if (shotResult.status === "rejected") {
      const error = asDriverError(shotResult.reason);
      structured.screenshot_error = { code: error.code, message: error.message, hint: error.data.hint };
    } else if (shotResult.value) {
      const encoded = shotResult.value;
      Object.assign(structured, {
        screenshot_width: encoded.width,
        screenshot_height: encoded.height,
        screenshot_mime_type: "image/png",
        screenshot_id: encoded.capture.id,
        screenshot_scale: encoded.width / encoded.capture.bounds.width,
      });
      if (args.screenshot_out_file) {
        structured.screenshot_file_path = await writeOutFile(args.screenshot_out_file, encoded.png);
      } else {
        content.push(imagePart(encoded.png, "image/png"));
      }
    }
    return { content, structuredContent: structured };
  },
});

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
