import assert from "node:assert/strict";
import type { AxWatch } from "../ports/accessibility.ts";
import { lineFeeds, reportedToggle, waitForChange } from "./readback.ts";

/** A watch whose events the test fires by hand; `next` records how long it was asked to wait. */
function manualWatch(): AxWatch & { fire(): void; waits: number[] } {
  let pending = 0;
  let wake: ((woke: boolean) => void) | null = null;
  const waits: number[] = [];
  return {
    waits,
    fire() {
      pending++;
      wake?.(true);
    },
    next(timeoutMs) {
      waits.push(timeoutMs);
      if (pending > 0) {
        pending = 0;
        return Promise.resolve(true);
      }
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          wake = null;
          resolve(false);
        }, timeoutMs);
        wake = (woke) => {
          clearTimeout(timer);
          wake = null;
          pending = 0;
          resolve(woke);
        };
      });
    },
    close() {},
  };
}

Deno.test("waitForChange re-reads when the watch reports an event and stops at the change", async () => {
  const watch = manualWatch();
  let state = false;
  let reads = 0;
  const read = () => {
    reads++;
    const value = state;
    if (reads === 1) {
      // The app changes just after the first read, and reports it.
      setTimeout(() => {
        state = true;
        watch.fire();
      }, 0);
    }
    return Promise.resolve(value);
  };
  const result = await waitForChange(read, false, undefined, 60_000, watch);
  assert.deepEqual(result, { changed: true, after: true });
  assert.equal(reads, 2, "one read at the start, one after the event");
  assert.equal(watch.waits.length, 1);
});

Deno.test("waitForChange without a watch re-reads soon after the action, then on its interval", async () => {
  let reads = 0;
  const read = () => Promise.resolve(++reads >= 4);
  const result = await waitForChange(read, false, undefined, 60_000);
  assert.deepEqual(result, { changed: true, after: true });
  assert.equal(reads, 4);
});

Deno.test("waitForChange says unchanged when the deadline passes", async () => {
  const watch = manualWatch();
  const result = await waitForChange(() => Promise.resolve(1), 1, undefined, 30, watch);
  assert.deepEqual(result, { changed: false, after: 1 });
  assert.ok(watch.waits.every((ms) => ms <= 30), `waits ${watch.waits} stay inside the deadline`);
});

Deno.test("waitForChange keeps reading through a read that fails", async () => {
  let reads = 0;
  const read = () => {
    reads++;
    return reads === 1 ? Promise.reject(new Error("rebuilding")) : Promise.resolve("new");
  };
  assert.deepEqual(await waitForChange(read, "old", undefined, 60_000), { changed: true, after: "new" });
});

Deno.test("waitForChange ends on the state the app's event reported, without reading again", async () => {
  const watch = manualWatch();
  const states = new Map<string, boolean>();
  let reads = 0;
  const read = () => {
    reads++;
    if (reads === 1) {
      // The app turns the box on and says so; asked again, it would answer late (and still false here).
      setTimeout(() => {
        states.set("checked", true);
        watch.fire();
      }, 0);
    }
    return Promise.resolve(false);
  };
  const result = await waitForChange(
    read,
    false,
    undefined,
    500,
    watch,
    () => reportedToggle({ ...watch, reportedStates: states }),
  );
  assert.deepEqual(result, { changed: true, after: true });
  assert.equal(reads, 1, "no read after the event");
});

Deno.test("reportedToggle trusts only a checked state turning on", () => {
  const watchWith = (entries: [string, boolean][]) => ({
    next: () => Promise.resolve(false),
    close() {},
    reportedStates: new Map(entries),
  });
  assert.equal(reportedToggle(watchWith([["checked", true]])), true);
  assert.equal(reportedToggle(watchWith([["checked", false]])), undefined, "pressed may still be on");
  assert.equal(reportedToggle(watchWith([["pressed", true]])), undefined, "Qt: pressed while held down");
  assert.equal(reportedToggle(watchWith([])), undefined);
  assert.equal(reportedToggle(null), undefined);
  assert.equal(reportedToggle({ next: () => Promise.resolve(false), close() {} }), undefined);
});

Deno.test("lineFeeds reads CR LF (an edit control) and CR (a rich edit) as the LF typed", () => {
  assert.equal(lineFeeds("a\r\nb\rc\nd"), "a\nb\nc\nd");
  assert.equal(lineFeeds("no line end"), "no line end");
  assert.notEqual(lineFeeds("a\r\nb"), lineFeeds("ab"));
});
