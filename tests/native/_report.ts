/**
 * What the native macOS tests ran and what they skipped for want of a grant, one JSON
 * line per cell in `$CUA_NATIVE_REPORT_DIR/cells.jsonl` (uploaded by the workflow), so a
 * skip is recorded with the exact missing grant, not only shown as "ignored".
 *
 * @module
 */

/** One cell's outcome. */
export interface Cell {
  cell: string;
  status: "passed" | "failed" | "skipped";
  detail?: string;
}

/** Appends a cell's outcome to the report (nothing when no report directory is set). */
export function record(cell: Cell): void {
  const dir = Deno.env.get("CUA_NATIVE_REPORT_DIR");
  if (!dir) return;
  Deno.mkdirSync(dir, { recursive: true });
  Deno.writeTextFileSync(
    `${dir}/cells.jsonl`,
    JSON.stringify({ ...cell, at: new Date().toISOString() }) + "\n",
    {
      append: true,
    },
  );
}

/** Runs a cell's body and records whether it passed (a throw is recorded, then rethrown). */
export async function cell(name: string, body: () => Promise<void> | void): Promise<void> {
  try {
    await body();
    record({ cell: name, status: "passed" });
  } catch (error) {
    record({ cell: name, status: "failed", detail: String((error as Error)?.message ?? error) });
    throw error;
  }
}

/** Records a skipped cell and returns its test name, which carries the reason. */
export function skipped(name: string, reason: string): string {
  record({ cell: name, status: "skipped", detail: reason });
  return `${name} (skipped: ${reason})`;
}
