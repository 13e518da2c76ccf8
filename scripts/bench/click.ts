/**
 * Click reply benchmark: a background click on the GTK3 fixture's check box through the
 * driver (MCP stdio, the click confirmed by reading the box's state back), against
 * python-xlib sending the same click with XTest, in alternating rounds on one fixture.
 *
 * Both sides are timed against the moment the app itself saw the click: the fixture's
 * journal stamps its `toggled` handler with the wall clock (to the microsecond). The
 * driver's numbers: request → reply, request → toggled, and toggled → reply (how long the
 * read-back took to notice the change and answer; the goal is 3 ms). The peer's: XTest
 * sent → toggled. This process's wall clock is calibrated once against `Date.now()`.
 *
 * @module
 */
import type { JournalEntry } from "../../tests/_helpers/fixture_app.ts";
import { startFixture } from "../../tests/_helpers/fixture_app.ts";
import { openMcp } from "./mcp_client.ts";

/** What the click benchmark measured, ms per click. */
export interface ClickBench {
  request_to_reply_ms: number[];
  request_to_toggled_ms: number[];
  toggled_to_reply_ms: number[];
  /** Clicks the driver reported confirmed by the read-back. */
  confirmed: number;
  xtest_sent_to_toggled_ms: number[];
}

/** python-xlib: one line "xid x y" on stdin → an XTest click there; prints the send time (unix ms). */
const XTEST_PEER = `
import sys, time
from Xlib import X, display
from Xlib.ext import xtest
d = display.Display()
root = d.screen().root
for line in sys.stdin:
    xid, x, y = (int(v) for v in line.split())
    pos = root.translate_coords(d.create_resource_object("window", xid), x, y)
    xtest.fake_input(d, X.MotionNotify, x=pos.x, y=pos.y)
    d.sync()
    sent = time.time() * 1000
    xtest.fake_input(d, X.ButtonPress, 1)
    xtest.fake_input(d, X.ButtonRelease, 1)
    d.sync()
    print(sent, flush=True)
`;

/**
 * The wall clock (unix ms) with sub-millisecond resolution: the high-resolution clock shifted
 * onto `Date.now()` by the mean offset of many samples (`Date.now()` truncates to whole ms).
 */
export function wallClock(): () => number {
  let sum = 0;
  const samples = 2000;
  for (let i = 0; i < samples; i++) {
    const hr = performance.timeOrigin + performance.now();
    sum += Date.now() + 0.5 - hr;
  }
  const offset = sum / samples;
  return () => performance.timeOrigin + performance.now() + offset;
}

/**
 * The first journal entry after `seen` that `matches`, and the journal's length then; polls the
 * fixture's journal every 2 ms (the entry's own time stamp is what the benchmarks compare).
 */
export async function nextJournalEntry(
  readJournal: () => Promise<JournalEntry[]>,
  seen: number,
  matches: (entry: JournalEntry) => boolean,
  what: string,
): Promise<{ entry: JournalEntry; count: number }> {
  for (let tries = 0; tries < 5000; tries++) {
    const entries = await readJournal();
    const entry = entries.slice(seen).find(matches);
    if (entry) return { entry, count: entries.length };
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`the fixture never journalled ${what}`);
}

function nextToggle(readJournal: () => Promise<JournalEntry[]>, seen: number, agreed: boolean) {
  return nextJournalEntry(
    readJournal,
    seen,
    (e) => e.event === "check" && e.agreed === agreed,
    `agreed=${agreed}`,
  );
}

/** Runs `rounds` alternating rounds (each: one driver click, one XTest click). */
export async function benchClick(env: Record<string, string>, rounds: number): Promise<ClickBench> {
  const now = wallClock();
  const mcp = await openMcp(env);
  const app = await startFixture(env, { title: "Bench click", x: 1300, y: 80 });
  const peer = new Deno.Command("/usr/bin/python3", {
    args: ["-c", XTEST_PEER],
    env,
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const peerIn = peer.stdin.getWriter();
  const peerOut = peer.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let peerBuffer = "";
  const result: ClickBench = {
    request_to_reply_ms: [],
    request_to_toggled_ms: [],
    toggled_to_reply_ms: [],
    confirmed: 0,
    xtest_sent_to_toggled_ms: [],
  };
  try {
    const state = (await mcp.call("get_window_state", { pid: app.pid, window_id: app.xid })).structured;
    const box = (state.elements as { label: string; element_token: string }[])
      .find((e) => e.label === "chk-agree");
    if (!box) throw new Error("no chk-agree in the fixture's window state");
    const rect = app.widgets["chk-agree"];
    let seen = (await app.readJournal()).length;
    let agreed = false;
    const driverClick = async (record: boolean) => {
      const started = now();
      const { ms, structured } = await mcp.call("click", { element_token: box.element_token });
      const replied = started + ms;
      agreed = !agreed;
      const { entry, count } = await nextToggle(app.readJournal, seen, agreed);
      seen = count;
      if (!record) return;
      if (structured.effect === "confirmed") result.confirmed++;
      result.request_to_reply_ms.push(ms);
      result.request_to_toggled_ms.push(entry.t - started);
      result.toggled_to_reply_ms.push(replied - entry.t);
    };
    const xtestClick = async (record: boolean) => {
      await peerIn.write(
        new TextEncoder().encode(
          `${app.xid} ${rect.x + Math.floor(rect.width / 2)} ${rect.y + Math.floor(rect.height / 2)}\n`,
        ),
      );
      while (!peerBuffer.includes("\n")) {
        const { value, done } = await peerOut.read();
        if (done) throw new Error("the XTest peer exited");
        peerBuffer += value;
      }
      const sent = Number(peerBuffer.slice(0, peerBuffer.indexOf("\n")));
      peerBuffer = peerBuffer.slice(peerBuffer.indexOf("\n") + 1);
      agreed = !agreed;
      const { entry, count } = await nextToggle(app.readJournal, seen, agreed);
      seen = count;
      if (record) result.xtest_sent_to_toggled_ms.push(entry.t - sent);
    };
    await driverClick(false); // warm-up: the driver's first click opens its AT-SPI watch
    await xtestClick(false);
    for (let round = 0; round < rounds; round++) {
      await driverClick(true);
      await xtestClick(true);
    }
    return result;
  } finally {
    await peerIn.close().catch(() => {});
    await peer.status;
    peerOut.releaseLock();
    await app.stop();
    await mcp.close();
  }
}

if (import.meta.main) {
  const { withDesktop } = await import("./desktop.ts");
  const { median } = await import("./peer_report.ts");
  const r = await withDesktop((env) => benchClick(env, Number(Deno.args[0]) || 15));
  const f = (values: number[]) => median(values).toFixed(2).padStart(7) + " ms";
  console.log("driver request → reply   ", f(r.request_to_reply_ms), `(${r.confirmed} confirmed)`);
  console.log("driver request → toggled ", f(r.request_to_toggled_ms));
  console.log("driver toggled → reply   ", f(r.toggled_to_reply_ms));
  console.log("XTest sent → toggled     ", f(r.xtest_sent_to_toggled_ms));
}
