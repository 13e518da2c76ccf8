import assert from "node:assert/strict";
import { fakeElement } from "../../src/backends/fake/mod.ts";
import type { AxTree } from "../../src/ports/accessibility.ts";
import verify_state from "./verify_state.ts";
import { PID, textOf, toolKit, treeOf, WINDOW } from "./_test_kit.ts";

const target = { pid: PID, window_id: WINDOW };

/** A window with a counter label, two buttons and a check box. */
function app(counter = 0, checked = false): AxTree {
  return treeOf({
    role: "window",
    platformRole: "frame",
    name: "App",
    children: [
      { role: "button", platformRole: "push button", name: "Increment", actions: ["click"] },
      { role: "button", platformRole: "push button", name: "Reset", actions: ["click"], enabled: false },
      {
        role: "check_box",
        platformRole: "check box",
        name: "I agree",
        selected: checked,
        actions: ["click"],
      },
      {
        role: "label",
        platformRole: "label",
        name: `counter=${counter}`,
        interfaces: ["component", "text"],
        ref: fakeElement({ text: `counter=${counter}` }),
      },
      {
        role: "text_field",
        platformRole: "text",
        name: "entry",
        interfaces: ["component", "text"],
        ref: fakeElement({ text: "" }),
      },
      { role: "button", platformRole: "push button", name: "Hidden", showing: false },
    ],
  });
}

function kitWith(next: () => AxTree) {
  const kit = toolKit([verify_state]);
  kit.serveTrees(next);
  return kit;
}

Deno.test("verify_state tool is satisfied once every predicate held for stable_samples samples", async () => {
  const kit = kitWith(() => app(1, true));
  const result = await kit.call("verify_state", {
    ...target,
    expect: [
      { element: { selector: { role: "label", label_contains: "counter=" }, value_equals: "counter=1" } },
      { element: { selector: { role: "check_box" }, selected: true, enabled: true } },
      { element: { selector: { label_contains: "Increment" } } },
      { window: { exists: true, bounds: { x: 101, y: 99, width: 400, height: 300, tolerance_px: 1 } } },
    ],
  });
  assert.equal(result.isError, undefined, textOf(result));
  const out = result.structuredContent!;
  assert.equal(out.status, "satisfied", textOf(result));
  assert.equal(out.stable, true);
  assert.equal(out.samples, 2);
  const predicates = out.predicates as { status: string; unknown_reason: unknown; observed_json: string }[];
  assert.deepEqual(predicates.map((p) => p.status), ["satisfied", "satisfied", "satisfied", "satisfied"]);
  assert.equal(JSON.parse(predicates[0].observed_json).value, "counter=1");
});

Deno.test("verify_state tool waits for a change and reports how many samples it took", async () => {
  let reads = 0;
  const kit = kitWith(() => app(++reads >= 3 ? 1 : 0));
  const result = await kit.call("verify_state", {
    ...target,
    expect: [{ element: { selector: { label_contains: "counter=1" } } }],
    timeout_ms: 2000,
  });
  assert.equal(result.structuredContent?.status, "satisfied", textOf(result));
  assert.equal(result.structuredContent?.samples, 4);
  assert.ok(Number(result.structuredContent?.elapsed_ms) >= 250);
});

Deno.test("verify_state tool reports unsatisfied with what it observed at the timeout", async () => {
  const kit = kitWith(() => app(0));
  const result = await kit.call("verify_state", {
    ...target,
    expect: [
      { element: { selector: { label_contains: "counter=" }, value_equals: "counter=5" } },
      { element: { selector: { label_contains: "Reset" }, enabled: true } },
    ],
    timeout_ms: 250,
  });
  const out = result.structuredContent!;
  assert.equal(out.status, "unsatisfied");
  assert.equal(out.stable, true);
  assert.equal(out.samples, 3, "at 0, 100 and 200 ms");
  const predicates = out.predicates as { status: string; observed_json: string }[];
  assert.equal(JSON.parse(predicates[0].observed_json).value, "counter=0");
  assert.equal(JSON.parse(predicates[1].observed_json).enabled, false);
});

Deno.test("verify_state tool answers unknown for multi_match, target_missing and unsupported predicates", async () => {
  const kit = kitWith(() => app());
  const result = await kit.call("verify_state", {
    ...target,
    expect: [
      { element: { selector: { role: "push button" }, enabled: true } },
      { element: { selector: { label_contains: "Nowhere" }, enabled: true } },
      { element: { selector: { label_contains: "Increment" }, selected: true } },
      { element: { selector: { label_contains: "Hidden" }, enabled: true } },
    ],
    timeout_ms: 0,
  });
  const out = result.structuredContent!;
  assert.equal(out.status, "unknown");
  assert.equal(out.samples, 1);
  const reasons = (out.predicates as { unknown_reason: string }[]).map((p) => p.unknown_reason);
  assert.deepEqual(reasons, ["multi_match", "target_missing", "unsupported_predicate", "target_missing"]);
  const candidates = JSON.parse((out.predicates as { observed_json: string }[])[0].observed_json);
  assert.equal(candidates.matches, 2, "the hidden button does not count");
});

Deno.test("verify_state tool never satisfies a predicate from a degraded tree", async () => {
  for (
    const degraded of [
      { nodes: [], truncated: false, error: "no bridge" },
      treeOf({ role: "window", platformRole: "frame" }),
    ]
  ) {
    const kit = kitWith(() => degraded);
    const result = await kit.call("verify_state", {
      ...target,
      expect: [{ element: { selector: { role: "frame" } } }],
      timeout_ms: 150,
    });
    assert.equal(result.structuredContent?.status, "unknown");
    const [predicate] = result.structuredContent?.predicates as { unknown_reason: string }[];
    assert.equal(predicate.unknown_reason, "observation_unavailable");
  }
});

Deno.test("verify_state tool downgrades satisfied-but-not-stable to stability_unproven", async () => {
  let reads = 0;
  // The counter reaches 1 on the third and last sample (at 200 ms of 250).
  const kit = kitWith(() => app(++reads >= 3 ? 1 : 0));
  const result = await kit.call("verify_state", {
    ...target,
    expect: [{ element: { selector: { label_contains: "counter=1" } } }],
    stable_samples: 2,
    timeout_ms: 250,
  });
  const out = result.structuredContent!;
  assert.equal(out.status, "unknown", textOf(result));
  assert.equal(out.stable, false);
  const [predicate] = out.predicates as { status: string; unknown_reason: string }[];
  assert.deepEqual([predicate.status, predicate.unknown_reason], ["unknown", "stability_unproven"]);
});

Deno.test("verify_state tool checks that a window is gone", async () => {
  const kit = kitWith(() => app());
  kit.fake.windowsList = [];
  const result = await kit.call("verify_state", {
    ...target,
    expect: [{ window: { exists: false } }],
    stable_samples: 1,
  });
  assert.equal(result.structuredContent?.status, "satisfied");
  assert.equal(result.structuredContent?.samples, 1);
});

Deno.test("verify_state tool flags invalid predicates and stops after one sample", async () => {
  const kit = kitWith(() => app());
  const result = await kit.call("verify_state", {
    ...target,
    expect: [{}, { element: { selector: {} } }, { window: { exists: true } }],
  });
  const out = result.structuredContent!;
  assert.equal(out.status, "unknown");
  assert.equal(out.samples, 1);
  const statuses = (out.predicates as { status: string; unknown_reason: string | null }[])
    .map((p) => `${p.status}:${p.unknown_reason}`);
  assert.deepEqual(statuses, ["unknown:invalid_predicate", "unknown:invalid_predicate", "satisfied:null"]);
});

Deno.test("verify_state tool refuses bad arguments naming the field", async () => {
  const kit = kitWith(() => app());
  const cases: [Record<string, unknown>, string][] = [
    [{ ...target, expect: [] }, "expect"],
    [{ ...target, expect: [{ window: {} }], timeout_ms: 10_001 }, "timeout_ms"],
    [{ ...target, expect: [{ window: {} }], timeout_ms: 0, stable_samples: 2 }, "stable_samples"],
    [{ ...target, expect: [{ window: {} }], stable_samples: 6 }, "stable_samples"],
    [
      { ...target, expect: [{ element: { selector: { role: "x" }, exists: false } }] },
      "expect.0.element.exists",
    ],
    [{ ...target, expect: [{ element: { selector: { name: "x" } } }] }, "name"],
    [{ ...target, expect: Array(9).fill({ window: {} }) }, "expect"],
  ];
  for (const [args, field] of cases) {
    const result = await kit.call("verify_state", args);
    assert.equal(result.structuredContent?.code, "invalid_arguments", JSON.stringify(args));
    assert.equal(result.structuredContent?.field, field, JSON.stringify(args));
  }
  assert.ok(!kit.fake.calls.includes("accessibility.tree"), "nothing was sampled");
});

Deno.test("verify_state tool returns a final screenshot when asked", async () => {
  const kit = kitWith(() => app());
  const result = await kit.call("verify_state", {
    ...target,
    expect: [{ window: {} }],
    include_screenshot: true,
    stable_samples: 1,
  });
  assert.equal(result.structuredContent?.screenshot_width, 400);
  assert.equal(result.content.filter((part) => part.type === "image").length, 1);
});

Deno.test("verify_state tool tells identical matches apart by nth and frame, and nth picks one", async () => {
  const boxes = (checked: boolean[]): AxTree =>
    treeOf({
      role: "window",
      platformRole: "frame",
      name: "App",
      children: checked.map((c, i) => ({
        role: "check_box" as const,
        platformRole: "check box",
        name: "checkbutton",
        selected: c,
        actions: ["click"],
        frame: { x: 10, y: 10 + 30 * i, width: 100, height: 20 },
      })),
    });
  const kit = kitWith(() => boxes([false, true, false]));
  const ambiguous = await kit.call("verify_state", {
    ...target,
    expect: [{ element: { selector: { label_contains: "checkbutton" }, selected: true } }],
    timeout_ms: 0,
  });
  const [first] = ambiguous.structuredContent!.predicates as {
    unknown_reason: string;
    observed_json: string;
  }[];
  assert.equal(first.unknown_reason, "multi_match");
  const { candidates } = JSON.parse(first.observed_json);
  assert.deepEqual(
    candidates.map((
      c: { nth: number; frame: { y: number }; selected: boolean },
    ) => [c.nth, c.frame.y, c.selected]),
    [
      [0, 10, false],
      [1, 40, true],
      [2, 70, false],
    ],
  );
  const picked = await kit.call("verify_state", {
    ...target,
    expect: [
      { element: { selector: { label_contains: "checkbutton", nth: 1 }, selected: true } },
      { element: { selector: { label_contains: "checkbutton", nth: 2 }, selected: false } },
    ],
    timeout_ms: 0,
  });
  assert.equal(picked.structuredContent!.status, "satisfied", textOf(picked));
  const beyond = await kit.call("verify_state", {
    ...target,
    expect: [{ element: { selector: { label_contains: "checkbutton", nth: 5 }, exists: true } }],
    timeout_ms: 0,
  });
  assert.equal(beyond.structuredContent!.status, "unsatisfied", "no sixth match: not there");
});
