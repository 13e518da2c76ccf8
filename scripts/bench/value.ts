/**
 * Value reply benchmark: set_value and type_text (an AT-SPI insert) into the GTK3 fixture's text
 * entry through the driver (MCP stdio, each confirmed by reading the entry's text back), timed
 * against the moment the app itself saw the new text: the fixture's journal stamps its `changed`
 * handler with the wall clock. The numbers per call: request → reply, request → changed, and
 * changed → reply (how long the read-back took to notice the new text and answer; the goal is
 * 3 ms, as for a click). Between type_text rounds a set_value of "" empties the entry, so each
 * insert's expected text is the whole entry.
 *
 * @module
 */
import type { JournalEntry } from "../../tests/_helpers/fixture_app.ts";
import { startFixture } from "../../tests/_helpers/fixture_app.ts";
import { nextJournalEntry, wallClock } from "./click.ts";
import { openMcp } from "./mcp_client.ts";

/** One tool's times, ms per call. */
export interface ValueTimes {
  request_to_reply_ms: number[];
  request_to_changed_ms: number[];
  changed_to_reply_ms: number[];
  /** Calls the driver reported confirmed by the read-back. */
  confirmed: number;
}

/** What the value benchmark measured. */
export interface ValueBench {
  set_value: ValueTimes;
  type_text: ValueTimes;
}

/** The journal's first `text` entry after `seen` whose mirror is `text`, and the journal's length then. */
function nextText(readJournal: () => Promise<JournalEntry[]>, seen: number, text: string) {
  return nextJournalEntry(
    readJournal,
    seen,
    (e) => e.event === "text" && e.mirror === text,
    `the text ${JSON.stringify(text)}`,
  );
}

function times(): ValueTimes {
  return { request_to_reply_ms: [], request_to_changed_ms: [], changed_to_reply_ms: [], confirmed: 0 };
}

/** Runs `rounds` rounds, each one set_value and one type_text into the entry. */
export async function benchValue(env: Record<string, string>, rounds: number): Promise<ValueBench> {
  const now = wallClock();
  const mcp = await openMcp(env);
  const app = await startFixture(env, { title: "Bench value", x: 1300, y: 80 });
  const result: ValueBench = { set_value: times(), type_text: times() };
  try {
    const state = (await mcp.call("get_window_state", { pid: app.pid, window_id: app.xid })).structured;
    const entry = (state.elements as { label: string; element_token: string }[])
      .find((e) => e.label === "txt-input");
    if (!entry) throw new Error("no txt-input in the fixture's window state");
    let seen = (await app.readJournal()).length;
    /** Calls `tool`, waits for the app to show `text`, and records into `sink` when given. */
    const timed = async (tool: string, args: Record<string, unknown>, text: string, sink?: ValueTimes) => {
      const started = now();
      const { ms, structured } = await mcp.call(tool, { element_token: entry.element_token, ...args });
      const replied = started + ms;
      const { entry: changed, count } = await nextText(app.readJournal, seen, text);
      seen = count;
      if (!sink) return;
      if (structured.effect === "confirmed") sink.confirmed++;
      sink.request_to_reply_ms.push(ms);
      sink.request_to_changed_ms.push(changed.t - started);
      sink.changed_to_reply_ms.push(replied - changed.t);
    };
    // Warm-up: the driver's first calls open its AT-SPI watch.
    await timed("set_value", { value: "warm" }, "warm");
    await timed("set_value", { value: "" }, "");
    await timed("type_text", { text: "up" }, "up");
    for (let round = 0; round < rounds; round++) {
      const value = `value ${round}`;
      await timed("set_value", { value }, value, result.set_value);
      await timed("set_value", { value: "" }, "");
      const text = `typed ${round}`;
      await timed("type_text", { text }, text, result.type_text);
    }
    return result;
  } finally {
    await app.stop();
    await mcp.close();
  }
}

if (import.meta.main) {
  const { withDesktop } = await import("./desktop.ts");
  const { median } = await import("./peer_report.ts");
  const r = await withDesktop((env) => benchValue(env, Number(Deno.args[0]) || 15));
  const f = (values: number[]) => median(values).toFixed(2).padStart(7) + " ms";
  for (const [tool, t] of Object.entries(r)) {
    console.log(
      `${tool.padEnd(10)} request → reply  `,
      f(t.request_to_reply_ms),
      `(${t.confirmed} confirmed)`,
    );
    console.log(`${tool.padEnd(10)} request → changed`, f(t.request_to_changed_ms));
    console.log(`${tool.padEnd(10)} changed → reply  `, f(t.changed_to_reply_ms));
  }
}
