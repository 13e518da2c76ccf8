import { z } from "../../src/lib/schema/mod.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { toGrey } from "../../src/lib/image/grey.ts";
import { controlBox } from "../../src/features/perception/control_boxes.ts";
import { textRegions } from "../../src/features/perception/text_regions.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import type { Rect } from "../../src/ports/geometry.ts";
import { sessionParam } from "../_shared/params.ts";

const DEFAULT_MAX_REGIONS = 300;
const DEFAULT_MIN_CONFIDENCE = 0.5;
/** Regions listed in the text part (all are in structuredContent). */
const LISTED_REGIONS = 120;

const rect = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

/** One region in the screenshot's pixel space. */
const regionSchema = z.object({
  region_id: z.string().describe("<screenshot_id>:r<n>; bound to that capture"),
  kind: z.enum(["text", "control"]),
  text: z.string().optional().describe("The text read (a control's label)"),
  words: z.array(z.object({ text: z.string(), bounds: rect, confidence: z.number() })).optional(),
  bounds: rect,
  center: z.object({ x: z.number(), y: z.number() }).describe(
    "Click here: x, y with the same screenshot_id",
  ),
  confidence: z.number().describe("0..1; a control carries its label's text confidence"),
  text_region_id: z.string().optional().describe("For a control: the text region of its label"),
});

type Region = z.infer<typeof regionSchema>;

/** Local OCR of one registered capture into text regions and framed controls. */
export default defineTool({
  name: "parse_visual_regions",
  title: "Parse visual regions",
  description:
    "OCR a capture (screenshot_id of get_window_state, get_desktop_state or zoom) on this CPU into text and bordered control regions in its pixels: click a region's center with the same screenshot_id. For trees with nothing to address. Needs Tesseract (install_extension).",
  group: "screen",
  input: z.strictObject({
    screenshot_id: z.string().min(1).describe(
      "screenshot_id or zoom_id of a recent capture of this session",
    ),
    max_regions: z.number().int().min(1).max(2000).optional().describe(
      `Most regions returned, in reading order (default ${DEFAULT_MAX_REGIONS})`,
    ),
    min_confidence: z.number().min(0).max(1).optional().describe(
      `Words read with less confidence (0..1) are dropped (default ${DEFAULT_MIN_CONFIDENCE})`,
    ),
    kinds: z.array(z.enum(["text", "control"])).min(1).optional().describe(
      'Region kinds to return (default ["text", "control"])',
    ),
    session: sessionParam,
  }),
  output: z.object({
    screenshot_id: z.string(),
    width: z.number().int(),
    height: z.number().int(),
    regions: z.array(regionSchema),
    truncated: z.boolean().describe("More regions were found than max_regions"),
    engine: z.object({ name: z.string(), version: z.string().nullable() }),
    elapsed_ms: z.number(),
  }),
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  risk: "r2",
  capabilities: ["desktop.capture.parse"],
  async run(ctx, args) {
    const started = performance.now();
    const perception = ctx.backend.perception;
    if (!perception) {
      throw new DriverError("unsupported_platform", `No perception engine on ${ctx.backend.os} yet`, {
        hint: "use the accessibility tree (get_window_state) or pixels read from the screenshot",
      });
    }
    const status = await perception.status();
    if (!status.installed) {
      throw new DriverError("not_installed", `The perception engine is not installed: ${status.missing}`, {
        extension: "perception",
        engine: status.engine,
        missing: status.missing,
        remedy: status.remedy,
        hint: `install it with ${status.remedy}, then parse again; meanwhile use the accessibility tree`,
      });
    }
    const id = args.screenshot_id;
    const capture = ctx.state.captures.get(id);
    if (!capture || capture.sessionId !== ctx.session.id) {
      throw staleScreenshot(id, "unknown", `Screenshot "${id}" is not a live capture of this session`);
    }
    const image = ctx.state.captures.pixels(id);
    if (!image) {
      throw staleScreenshot(id, "pixels_evicted", `The pixels of screenshot "${id}" are no longer kept`);
    }
    ctx.progress({ message: `recognizing text in a ${image.width}x${image.height} image` });
    const lines = await perception.recognizeText(image, ctx.signal);
    const grey = toGrey(image);
    const kinds = new Set(args.kinds ?? ["text", "control"]);
    const found: Omit<Region, "region_id" | "text_region_id">[] = [];
    const labelOf = new Map<number, number>();
    for (const text of textRegions(lines, args.min_confidence ?? DEFAULT_MIN_CONFIDENCE)) {
      const textIndex = found.length;
      found.push({
        kind: "text",
        text: text.text,
        words: text.words,
        bounds: text.bounds,
        center: center(text.bounds),
        confidence: round(text.confidence),
      });
      const box = controlBox(grey, text.bounds);
      if (box) {
        labelOf.set(found.length, textIndex);
        found.push({
          kind: "control",
          text: text.text,
          bounds: box,
          center: center(box),
          confidence: round(text.confidence),
        });
      }
    }
    const ids = found.map((_, i) => `${id}:r${i + 1}`);
    const regions: Region[] = found.flatMap((region, i) => {
      if (!kinds.has(region.kind)) return [];
      const label = labelOf.get(i);
      const words = region.words?.map((w) => ({ ...w, confidence: round(w.confidence) }));
      return [{
        region_id: ids[i],
        ...region,
        ...(words ? { words } : {}),
        ...(label !== undefined ? { text_region_id: ids[label] } : {}),
      }];
    });
    const max = args.max_regions ?? DEFAULT_MAX_REGIONS;
    const elapsed = Math.round(performance.now() - started);
    const returned = regions.slice(0, max);
    const listing = returned.slice(0, LISTED_REGIONS).map((r) =>
      `${r.region_id.slice(id.length + 1)} ${r.kind} ${JSON.stringify(r.text ?? "")} at ` +
      `${r.bounds.x},${r.bounds.y} ${r.bounds.width}x${r.bounds.height}`
    );
    const summary =
      `✅ ${returned.length}${regions.length > max ? ` of ${regions.length}` : ""} regions in ` +
      `${id} (${image.width}x${image.height}) in ${elapsed} ms; click a region's center with screenshot_id "${id}"`;
    return ok(
      {
        screenshot_id: id,
        width: image.width,
        height: image.height,
        regions: returned,
        truncated: regions.length > max,
        engine: { name: status.engine, version: status.version },
        elapsed_ms: elapsed,
      },
      [summary, ...listing].join("\n"),
    );
  },
});

function center(bounds: Rect): { x: number; y: number } {
  return { x: Math.round(bounds.x + bounds.width / 2), y: Math.round(bounds.y + bounds.height / 2) };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function staleScreenshot(id: string, reason: "unknown" | "pixels_evicted", message: string): DriverError {
  return new DriverError("stale_screenshot", message, {
    screenshot_id: id,
    reason,
    hint: "capture again (get_window_state, get_desktop_state or zoom) in this session and parse the new " +
      "screenshot_id; regions are never read from a fresh capture in its place",
  });
}
