import assert from "node:assert/strict";
import type { AppStateSample, AxWatch } from "../ports/accessibility.ts";
import type { ToolContext } from "../kernel/tool.ts";
import { bgrxImage } from "../lib/image/bgrx_image.ts";
import { describeChanges, judged, releaseWitnesses, Witness, witnessMark } from "./witness.ts";

function sample(
  objects: Record<string, string>,
  focus: string | null = null,
  details: Record<string, string> = {},
): AppStateSample {
  return {
    objects: new Map(Object.entries(objects)),
    focus,
    details: new Map(Object.entries(details)),
    describe: (key) => `push button ${JSON.stringify(key.split("#")[0])}`,
  };
}

Deno.test("describeChanges finds nothing between equal samples", () => {
  const a = sample({ a: "1", b: "2" }, "a", { "a#text": "x" });
  assert.deepEqual(describeChanges(a, sample({ a: "1", b: "2" }, "a", { "a#text": "x" })), []);
});

Deno.test("describeChanges names a moved focus, a moved caret, a new value and changed objects", () => {
  const before = sample({ a: "1", b: "2", c: "3" }, "a", { "a#caret": "1", "v#value": "3" });
  const caret = sample({ a: "1", b: "2", c: "3" }, "a", { "a#caret": "2", "v#value": "4" });
  assert.deepEqual(describeChanges(before, caret), [
    'caret of push button "a" moved 1 -> 2',
    'value of push button "v" 3 -> 4',
  ]);
  const focus = sample({ a: "1", b: "2*", d: "4" }, "b");
  assert.deepEqual(describeChanges(before, focus), [
    'focus moved to push button "b"',
    "1 accessible object appeared",
    "1 accessible object went away",
    'push button "b" changed',
  ]);
});

/**
 * A context whose window's pixels are `shade()` (a gray level) and whose app's one label reads
 * `label()`; `captures()` counts the window captures so far.
 */
function scriptedContext(shade: () => number, label: () => string, stateOnly = false) {
  let captures = 0;
  const ctx = {
    signal: new AbortController().signal,
    backend: {
      screen: {
        captureWindow: () => {
          captures++;
          return Promise.resolve({
            image: { width: 64, height: 64, data: new Uint8Array(64 * 64 * 4).fill(shade()) },
          });
        },
      },
      accessibility: {
        sample: () => Promise.resolve(sample({ label: label() })),
        ...(stateOnly ? { confirmsFromStateOnly: true } : {}),
      },
      input: { appSettled: () => Promise.resolve() },
      windows: { get: () => Promise.resolve({}) },
    },
  } as unknown as ToolContext;
  return { ctx, captures: () => captures };
}

/**
 * Settles a witness of a scripted window and app: the window shows other pixels once the input
 * is sent, and the app's accessible state changes with it when `changesAccessibly`. Returns the
 * finding and how many captures the settle took.
 */
async function settleScripted(changesAccessibly: boolean, stateOnly = false) {
  let sent = false;
  const { ctx, captures } = scriptedContext(
    () => sent ? 200 : 10,
    () => sent && changesAccessibly ? "1" : "0",
    stateOnly,
  );
  const witness = await Witness.observe(ctx, { pid: 1, windowId: 2 });
  sent = true;
  witness.sent();
  const before = captures();
  const finding = await witness.settle();
  return { finding, captures: captures() - before, witness };
}

Deno.test("Witness.settle answers with what the app's accessible state says changed, without the animation looks", async () => {
  const { finding, captures } = await settleScripted(true);
  assert.deepEqual(finding, { readable: true, changes: ['push button "label" changed'] });
  assert.ok(captures < 3, `${captures} captures after the input`);
});

Deno.test("Witness.settle still tells a pixel reaction from an animation when the accessible state is silent", async () => {
  const { finding, captures } = await settleScripted(false);
  assert.equal(finding.readable, true);
  assert.match(finding.changes[0], /pixels changed/);
  assert.equal(captures, 3, "the first look and the two animation looks");
});

Deno.test("judged: pixels alone confirm by default, but leave the action unverifiable where only the app's state confirms", async () => {
  const outcome = {
    effect: "unverifiable",
    route: "global_input",
    mode: "background",
    summary: "click",
  } as const;
  for (const stateOnly of [false, true]) {
    const { finding, witness } = await settleScripted(false, stateOnly);
    assert.equal(finding.pixelsOnly, true);
    const verdict = await judged(witness, outcome);
    assert.equal(verdict.effect, stateOnly ? "unverifiable" : "confirmed", `stateOnly=${stateOnly}`);
    assert.deepEqual(verdict.evidence, stateOnly ? undefined : ["window_change"]);
  }
  // A change of the app's own state confirms on either kind of back end.
  const { witness } = await settleScripted(true, true);
  const verdict = await judged(witness, outcome);
  assert.equal(verdict.effect, "confirmed");
  assert.match(verdict.summary, /push button "label" changed/);
});

Deno.test("Witness.settle looks again when the watched app reports an event", async () => {
  // The app reacts only once its event is delivered: a witness that polls instead never sees it.
  let reacted = false;
  const watch: AxWatch = {
    next() {
      reacted = true;
      return Promise.resolve(true);
    },
    close() {},
  };
  const { ctx, captures } = scriptedContext(() => 10, () => reacted ? "1" : "0");
  const witness = await Witness.observe(ctx, { pid: 1, windowId: 2 }, [], { watch });
  witness.sent();
  assert.deepEqual(await witness.settle(), { readable: true, changes: ['push button "label" changed'] });
  assert.ok(captures() >= 3, "observed twice, then looked again");
});

Deno.test("a witness that never settles (its action confirmed otherwise) gives its frame back when the action ends", async () => {
  const images: Uint8Array[] = [];
  const given: (Uint8Array | undefined)[] = [];
  const ctx = {
    signal: new AbortController().signal,
    backend: {
      screen: {
        captureWindow: (_id: number, options: { into?: Uint8Array } = {}) => {
          given.push(options.into);
          const data = options.into ?? new Uint8Array(64 * 64 * 4);
          images.push(data);
          // A capture's own BGRX pixels, as the X11 capture returns them (a frame shares them).
          return Promise.resolve({ image: bgrxImage(64, 64, data) });
        },
      },
      accessibility: { sample: () => Promise.resolve(sample({ label: "0" })) },
      windows: { get: () => Promise.resolve({}) },
    },
  } as unknown as ToolContext;
  const mark = witnessMark();
  await Witness.observe(ctx, { pid: 1, windowId: 2 }); // two captures; the second is the before-frame
  const beforeFrame = images[1];
  releaseWitnesses(mark);
  await Witness.observe(ctx, { pid: 1, windowId: 2 });
  assert.ok(
    given.slice(2).some((into) => into?.buffer === beforeFrame.buffer),
    "the next witness captured into the ended witness's before-frame",
  );
});

Deno.test("releaseWitnesses leaves a witness whose settle still reads its frame", async () => {
  const { ctx } = scriptedContext(() => 10, () => "0");
  const mark = witnessMark();
  const witness = await Witness.observe(ctx, { pid: 1, windowId: 2 });
  witness.sent();
  const settling = witness.settle(50);
  releaseWitnesses(mark); // the action ended while the settle runs: the settle gives the frame back
  assert.deepEqual(await settling, { readable: true, changes: [] });
});
