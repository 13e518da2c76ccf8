/**
 * `cua-driver report DIR`: a recording folder as one self-contained HTML file a person (or a CI
 * job's artifact viewer) opens offline. One entry per turn: the call and its (already redacted)
 * arguments, its result, before/after screenshots with the click marked (click.png), and the
 * lines of the accessibility tree that changed; failed and unconfirmed turns stand out. Images
 * are embedded as data: URIs and the page's CSP forbids every fetch, so opening it makes no
 * request at all.
 *
 * @module
 */
import { join } from "node:path";
import { DriverError } from "../../ports/errors.ts";
import { isTurnFolderName } from "./turn_writer.ts";
import { base64 } from "../../kernel/result.ts";

/** Changed tree lines shown per side of a turn; the rest is counted. */
const TREE_LINES_SHOWN = 60;
/** Largest image embedded (a recording's PNGs are window-sized, far below this). */
const IMAGE_LIMIT_BYTES = 32 * 1024 * 1024;

/** One turn as the report reads it. */
export interface ReportTurn {
  folder: string;
  tool: string;
  arguments: unknown;
  summary: string;
  failed: boolean;
  effect: string | null;
  code: string | null;
  startMs: number | null;
  endMs: number | null;
  images: { before: string | null; after: string | null; click: string | null };
  tree: { added: string[]; removed: string[]; addedCount: number; removedCount: number } | null;
  redacted: string[];
}

/** What {@linkcode buildReport} made. */
export interface Report {
  html: string;
  turns: ReportTurn[];
}

/**
 * Reads a recording folder and renders the report.
 *
 * @throws {DriverError} `recording_not_found` for a missing folder, `recording_invalid` for one
 *   without turn folders.
 */
export async function buildReport(dir: string): Promise<Report> {
  let names: string[];
  try {
    names = [];
    for await (const entry of Deno.readDir(dir)) if (entry.isDirectory) names.push(entry.name);
  } catch (error) {
    throw new DriverError("recording_not_found", `Cannot read recording folder "${dir}"`, {
      detail: (error as Error).message,
      hint: "pass the output_dir a start_recording call wrote to",
    });
  }
  const folders = names.filter(isTurnFolderName).sort();
  if (folders.length === 0) {
    throw new DriverError("recording_invalid", `"${dir}" holds no turn folders (turn-00001, ...)`, {
      hint: "record with start_recording, act, then stop_recording; pass that output_dir",
    });
  }
  const session = await readJson(join(dir, "session.json"));
  const turns: ReportTurn[] = [];
  for (const folder of folders) turns.push(await readTurn(join(dir, folder), folder));
  return { html: renderReport(dir, session, turns), turns };
}

async function readTurn(path: string, folder: string): Promise<ReportTurn> {
  const action = (await readJson(join(path, "action.json")) ?? {}) as Record<string, unknown>;
  const before = await readJson(join(path, "before_state.json")) as { tree_markdown?: string } | null;
  const after = await readJson(join(path, "after_state.json")) as { tree_markdown?: string } | null;
  const summary = String(action.result_summary ?? "");
  return {
    folder,
    tool: String(action.tool ?? "(unknown tool)"),
    arguments: action.arguments ?? {},
    summary,
    failed: action.result_error === true,
    effect: typeof action.result_effect === "string" ? action.result_effect : effectIn(summary),
    code: typeof action.result_code === "string" ? action.result_code : null,
    startMs: typeof action.t_start_ms_from_session_start === "number"
      ? action.t_start_ms_from_session_start
      : null,
    endMs: typeof action.t_ms_from_session_start === "number" ? action.t_ms_from_session_start : null,
    images: {
      before: await dataUri(join(path, "before.png")),
      after: await dataUri(join(path, "after.png")),
      click: await dataUri(join(path, "click.png")),
    },
    tree: before?.tree_markdown !== undefined && after?.tree_markdown !== undefined
      ? treeChange(before.tree_markdown, after.tree_markdown)
      : null,
    redacted: Array.isArray(action.redacted) ? action.redacted.map(String) : [],
  };
}

/** An effect named in a result's text, for recordings older than `result_effect`. */
function effectIn(summary: string): string | null {
  return /\b(confirmed|partial|unverifiable|suspected_noop|refused)\b/.exec(summary)?.[1] ?? null;
}

/**
 * The lines of a rendered tree that one side has and the other lacks, compared without their
 * element indices (`[12] `), which shift whenever a node is added above them.
 */
export function treeChange(
  before: string,
  after: string,
): { added: string[]; removed: string[]; addedCount: number; removedCount: number } {
  const normal = (line: string) => line.replace(/\[\d+\]\s*/g, "").trimEnd();
  const count = (lines: string[]) => {
    const counts = new Map<string, number>();
    for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
    return counts;
  };
  const a = before.split("\n").map(normal).filter(Boolean);
  const b = after.split("\n").map(normal).filter(Boolean);
  const only = (lines: string[], other: Map<string, number>) => {
    const left = new Map(other);
    const out: string[] = [];
    for (const line of lines) {
      const n = left.get(line) ?? 0;
      if (n > 0) left.set(line, n - 1);
      else out.push(line);
    }
    return out;
  };
  const added = only(b, count(a));
  const removed = only(a, count(b));
  return {
    added: added.slice(0, TREE_LINES_SHOWN),
    removed: removed.slice(0, TREE_LINES_SHOWN),
    addedCount: added.length,
    removedCount: removed.length,
  };
}

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await Deno.readTextFile(path));
  } catch {
    return null;
  }
}

async function dataUri(path: string): Promise<string | null> {
  try {
    const info = await Deno.stat(path);
    if (!info.isFile || info.size > IMAGE_LIMIT_BYTES) return null;
    return `data:image/png;base64,${base64(await Deno.readFile(path))}`;
  } catch {
    return null;
  }
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Why a turn stands out, or null for a confirmed or plain success. */
function standout(turn: ReportTurn): "failed" | "unconfirmed" | null {
  if (turn.failed || turn.effect === "refused") return "failed";
  if (turn.effect === "unverifiable" || turn.effect === "suspected_noop" || turn.effect === "partial") {
    return "unconfirmed";
  }
  return null;
}

function renderTurn(turn: ReportTurn, n: number): string {
  const mark = standout(turn);
  const image = (label: string, uri: string | null) =>
    uri
      ? `<figure><img src="${uri}" alt="${escape(label)}"><figcaption>${escape(label)}</figcaption></figure>`
      : `<figure class="none"><figcaption>${escape(label)}: not captured</figcaption></figure>`;
  const timing = turn.startMs !== null && turn.endMs !== null
    ? `t=${(turn.startMs / 1000).toFixed(2)} s, took ${Math.round(turn.endMs - turn.startMs)} ms`
    : "";
  const tree = turn.tree
    ? `<details${
      turn.tree.addedCount + turn.tree.removedCount ? " open" : ""
    }><summary>Accessibility tree: ` +
      `${turn.tree.addedCount} line(s) added, ${turn.tree.removedCount} removed</summary><pre>` +
      turn.tree.removed.map((l) => `<del>- ${escape(l)}</del>`).join("\n") +
      (turn.tree.removed.length && turn.tree.added.length ? "\n" : "") +
      turn.tree.added.map((l) => `<ins>+ ${escape(l)}</ins>`).join("\n") +
      (turn.tree.addedCount > turn.tree.added.length || turn.tree.removedCount > turn.tree.removed.length
        ? "\n… (more lines not shown)"
        : "") +
      `</pre></details>`
    : `<p class="meta">No accessibility tree was recorded for this turn.</p>`;
  return `<article class="turn${mark ? ` ${mark}` : ""}" data-turn="${n}" data-tool="${escape(turn.tool)}"${
    mark ? ` data-standout="${mark}"` : ""
  }>
<h2>${n}. ${escape(turn.tool)} ${
    turn.effect ? `<span class="effect ${escape(turn.effect)}">${escape(turn.effect)}</span>` : ""
  }${
    turn.failed ? `<span class="effect failed">error${turn.code ? `: ${escape(turn.code)}` : ""}</span>` : ""
  }</h2>
<p class="meta">${escape(turn.folder)}${timing ? ` · ${timing}` : ""}${
    turn.redacted.length ? ` · redacted: ${escape(turn.redacted.join(", "))}` : ""
  }</p>
<pre class="args">${escape(JSON.stringify(turn.arguments, null, 2))}</pre>
<p class="result">${escape(turn.summary)}</p>
<div class="shots">${image("before", turn.images.before)}${image("click", turn.images.click)}${
    image("after", turn.images.after)
  }</div>
${tree}
</article>`;
}

function renderReport(dir: string, session: unknown, turns: ReportTurn[]): string {
  const doc = (session ?? {}) as { started_at?: string; stopped_at?: string };
  const failed = turns.filter((t) => standout(t) === "failed").length;
  const unconfirmed = turns.filter((t) => standout(t) === "unconfirmed").length;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<title>cua-driver trajectory: ${escape(dir)}</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; }
  h1 { font-size: 20px; } h2 { font-size: 16px; margin: 0 0 4px; }
  .turn { border: 1px solid #ccc; border-left: 6px solid #2a7; border-radius: 6px; padding: 12px; margin: 12px 0; }
  .turn.failed { border-left-color: #d22; background: #fff3f3; }
  .turn.unconfirmed { border-left-color: #e9a31c; background: #fffaf0; }
  .meta { color: #666; font-size: 12px; margin: 2px 0; }
  .effect { font-size: 12px; padding: 1px 8px; border-radius: 8px; background: #ddd; margin-left: 6px; }
  .effect.confirmed { background: #c8ecd3; } .effect.failed, .effect.refused { background: #f6c6c6; }
  .effect.unverifiable, .effect.suspected_noop, .effect.partial { background: #fbe2b0; }
  pre { background: #f6f6f6; padding: 8px; overflow-x: auto; font-size: 12px; }
  .shots { display: flex; gap: 8px; flex-wrap: wrap; }
  figure { margin: 0; max-width: 32%; } figure img { max-width: 100%; border: 1px solid #bbb; }
  figure.none { color: #888; font-size: 12px; }
  ins { color: #0a6b2a; text-decoration: none; } del { color: #a11; text-decoration: none; }
</style>
</head>
<body>
<h1>Trajectory: ${escape(dir)}</h1>
<p class="meta">${turns.length} turn(s)${doc.started_at ? ` · started ${escape(doc.started_at)}` : ""}${
    doc.stopped_at ? ` · stopped ${escape(doc.stopped_at)}` : " · not stopped cleanly"
  } · <strong>${failed}</strong> failed or refused · <strong>${unconfirmed}</strong> unconfirmed</p>
${turns.map((turn, i) => renderTurn(turn, i + 1)).join("\n")}
</body>
</html>
`;
}
