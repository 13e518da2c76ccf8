/**
 * How a snapshot is shown to an agent: compact ref records (`dom_refs_v1`), or a
 * semantic outline with per-ref actions and content refs (`semantic_v2`), in pages.
 *
 * @module
 */
import type { Snapshot, SnapshotRef } from "./snapshot.ts";

/** Refs per page of a snapshot. */
export const PAGE_SIZE = 150;

/** Actions a ref's element takes, for semantic_v2. */
export function actionsOf(ref: SnapshotRef): string[] {
  if (ref.kind === "content") return [];
  const actions: string[] = [];
  if (!ref.disabled) actions.push("click");
  if (ref.editable && !ref.disabled) actions.push("type");
  if (ref.tag === "select") actions.push("select");
  if (ref.type === "file") actions.push("set_input_files");
  if (ref.href !== null) actions.push("download");
  if (ref.draggable) actions.push("drag");
  if (ref.scrollable) actions.push("scroll");
  actions.push("hover");
  return actions;
}

/** A ref as JSON output: only the fields that say something. */
export function refRecord(ref: SnapshotRef, semantic: boolean): Record<string, unknown> {
  const record: Record<string, unknown> = { ref: ref.ref, role: ref.role, name: ref.name, tag: ref.tag };
  if (ref.type !== null) record.type = ref.type;
  if (ref.value !== null) record.value = ref.value;
  if (ref.checked !== null) record.checked = ref.checked;
  if (ref.disabled) record.disabled = true;
  if (ref.editable) record.editable = true;
  if (ref.focused) record.focused = true;
  if (ref.href !== null) record.href = ref.href;
  if (ref.id !== null) record.dom_id = ref.id;
  if (ref.level !== null) record.level = ref.level;
  if (ref.multiple) record.multiple = true;
  record.bounds = ref.bounds;
  if (semantic) record.actions = actionsOf(ref);
  return record;
}

/** One line of text for a ref. */
function line(ref: SnapshotRef): string {
  if (ref.level !== null) return `${"#".repeat(ref.level)} ${ref.name} [${ref.ref}]`;
  if (ref.kind === "content") return `${ref.name} [${ref.ref}]`;
  const extras = [
    ref.value !== null && ref.value !== "" ? `value=${JSON.stringify(ref.value.slice(0, 60))}` : "",
    ref.checked !== null ? (ref.checked ? "checked" : "unchecked") : "",
    ref.disabled ? "disabled" : "",
    ref.focused ? "focused" : "",
  ].filter(Boolean).join(" ");
  return `- ${ref.role}${ref.type && ref.role === "textbox" ? `(${ref.type})` : ""} ${
    JSON.stringify(ref.name)
  }${extras ? ` ${extras}` : ""} [${ref.ref}]`;
}

/** A page of a snapshot's refs, after the query filter. */
export interface SnapshotPage {
  refs: SnapshotRef[];
  complete: boolean;
  omitted: number;
  continuation: string | null;
}

/** Filters by `query` (substring of role, name, value, tag or id) and cuts a page at `offset`. */
export function pageOf(snapshot: Snapshot, query: string | undefined, offset: number): SnapshotPage {
  const needle = query?.trim().toLowerCase();
  const matching = needle
    ? snapshot.refs.filter((r) =>
      [r.role, r.name, r.value ?? "", r.tag, r.id ?? ""].some((field) => field.toLowerCase().includes(needle))
    )
    : snapshot.refs;
  const refs = matching.slice(offset, offset + PAGE_SIZE);
  const next = offset + refs.length;
  const more = next < matching.length;
  return {
    refs,
    complete: !more && !snapshot.truncated,
    omitted: matching.length - refs.length,
    continuation: more ? `p${snapshot.id}@${next}` : null,
  };
}

/** Parses a continuation token `p<snapshot>@<offset>`. */
export function parseContinuation(token: string): { snapshot: number; offset: number } | null {
  const match = /^p(\d+)@(\d+)$/.exec(token);
  return match ? { snapshot: Number(match[1]), offset: Number(match[2]) } : null;
}

/** The text outline of a page of refs (semantic_v2), indented by landmark depth. */
export function outlineOf(refs: SnapshotRef[]): string {
  return refs.map((ref) => `${"  ".repeat(Math.min(ref.depth, 8))}${line(ref)}`).join("\n");
}

/** The plain ref listing (dom_refs_v1). */
export function listingOf(refs: SnapshotRef[]): string {
  return refs.map(line).join("\n");
}
