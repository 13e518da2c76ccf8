import assert from "node:assert/strict";
import { fakeElement } from "../../src/backends/fake/mod.ts";
import invoke_menu from "../accessibility/invoke_menu.ts";
import verify_state from "../accessibility/verify_state.ts";
import { PID, textOf, toolKit, treeOf, WINDOW } from "../accessibility/_test_kit.ts";
import get_window_state from "../windows/get_window_state.ts";
import click from "./click.ts";
import run_actions from "./run_actions.ts";

function kit() {
  const k = toolKit([get_window_state, verify_state, invoke_menu, click, run_actions]);
  const button = fakeElement({ actions: ["click"] });
  const left = fakeElement({ actions: ["click"] });
  k.serveTrees(() =>
    treeOf({
      role: "window",
      platformRole: "frame",
      name: "App",
      children: [
        {
          role: "menu_bar",
          platformRole: "menu bar",
          children: [{
            role: "menu",
            platformRole: "menu",
            name: "Window",
            children: [{ role: "menu_item", platformRole: "menu item", name: "Left", ref: left }],
          }],
        },
        { role: "button", platformRole: "push button", name: "Increment", actions: ["click"], ref: button },
      ],
    })
  );
  return { ...k, button, left };
}

async function tokenOf(k: ReturnType<typeof kit>, label: string, session?: string): Promise<string> {
  const state = await k.call("get_window_state", {
    pid: PID,
    window_id: WINDOW,
    include_screenshot: false,
    session,
  });
  const elements = state.structuredContent?.elements as { label: string; element_token: string }[];
  return elements.find((e) => e.label === label)!.element_token;
}

Deno.test("run_actions tool runs actions in order through the registry and observes the window", async () => {
  const k = kit();
  const token = await tokenOf(k, "Increment");
  const result = await k.call("run_actions", {
    actions: [
      { tool: "click", arguments: { element_token: token } },
      { tool: "invoke_menu", arguments: { pid: PID, window_id: WINDOW, path: ["Window", "Left"] } },
      { tool: "click", arguments: { element_token: token } },
    ],
    observe: { pid: PID, window_id: WINDOW, include_screenshot: true },
  });
  assert.equal(result.isError, undefined, textOf(result));
  const out = result.structuredContent!;
  assert.equal(out.completed, 3);
  assert.equal(out.attempted, 3);
  assert.equal(out.failed_index, null);
  assert.equal(k.button.activations, 2);
  assert.equal(k.left.activations, 1);
  const results = out.results as {
    index: number;
    tool: string;
    is_error: boolean;
    structured: Record<string, unknown>;
  }[];
  assert.deepEqual(results.map((r) => [r.index, r.tool, r.is_error]), [
    [0, "click", false],
    [1, "invoke_menu", false],
    [2, "click", false],
  ]);
  assert.equal(results[1].structured.route, "accessibility");
  const observation = out.observation as Record<string, unknown>;
  assert.equal(observation.is_error, false);
  assert.equal(observation.tree_markdown, undefined, "the outline is in the text, not twice");
  assert.match(String(observation.snapshot_id), /^s[0-9a-f]{8}$/);
  const elements = observation.elements as { label: string; element_token: string }[];
  assert.ok(
    elements.some((e) =>
      e.label === "Increment" && e.element_token.startsWith(`${observation.snapshot_id}:`)
    ),
  );
  const text = result.content.find((part) => part.type === "text");
  assert.match(text?.type === "text" ? text.text : "", /\[\d+\] push button "Increment"/, "the outline");
  assert.equal(
    result.content.filter((part) => part.type === "image").length,
    1,
    "only the observation's image",
  );
});

Deno.test("run_actions tool stops at the first failure and reports it without failing the call", async () => {
  const k = kit();
  const token = await tokenOf(k, "Increment");
  const result = await k.call("run_actions", {
    actions: [
      { tool: "click", arguments: { element_token: token } },
      { tool: "invoke_menu", arguments: { pid: PID, window_id: WINDOW, path: ["Window", "Nope"] } },
      { tool: "click", arguments: { element_token: token } },
    ],
  });
  assert.equal(result.isError, undefined);
  const out = result.structuredContent!;
  assert.deepEqual([out.completed, out.attempted, out.failed_index], [1, 2, 1]);
  const failed = (out.results as { structured: Record<string, unknown> }[])[1].structured;
  assert.equal(failed.code, "menu_path_unavailable");
  assert.equal(k.button.activations, 1, "the action after the failure did not run");
  assert.match(textOf(result), /action 1 \(invoke_menu\) failed; 1 succeeded, 1 skipped/);

  const all = await k.call("run_actions", {
    actions: [
      { tool: "invoke_menu", arguments: { pid: PID, window_id: WINDOW, path: ["Nope"] } },
      { tool: "click", arguments: { element_token: token } },
    ],
    stop_on_error: false,
  });
  assert.deepEqual([all.structuredContent?.completed, all.structuredContent?.failed_index], [1, 0]);
  assert.equal(k.button.activations, 2);
});

Deno.test("run_actions tool refuses a bad batch before running any of it", async () => {
  const k = kit();
  const token = await tokenOf(k, "Increment");
  const first = { tool: "click", arguments: { element_token: token } };
  const cases: [unknown[], string][] = [
    [[first, { tool: "clack", arguments: {} }], "actions.1.tool"],
    [[first, { tool: "get_window_state", arguments: { pid: PID, window_id: WINDOW } }], "actions.1.tool"],
    [[first, { tool: "run_actions", arguments: { actions: [first] } }], "actions.1.tool"],
    [[first, { tool: "click", arguments: [1, 2] }], "actions.1.arguments"],
    [[first, { tool: "click", arguments: "x=1" }], "actions.1.arguments"],
    [
      [first, { tool: "invoke_menu", arguments: { pid: PID, window_id: WINDOW, path: [] } }],
      "actions.1.arguments.path",
    ],
    [[first, { tool: "click", arguments: { x: "ten", y: 1 } }], "actions.1.arguments.x"],
    [[first, { tool: "click", arguments: { bogus: 1 } }], "actions.1.arguments.bogus"],
    [[], "actions"],
  ];
  for (const [actions, field] of cases) {
    const result = await k.call("run_actions", { actions });
    assert.equal(result.isError, true, JSON.stringify(actions));
    assert.equal(result.structuredContent?.code, "invalid_arguments", textOf(result));
    assert.equal(result.structuredContent?.field, field, textOf(result));
  }
  assert.equal(k.button.activations, 0, "nothing was sent");
});

Deno.test("run_actions tool runs nested actions in its own session and refuses another label", async () => {
  const k = kit();
  const token = await tokenOf(k, "Increment", "mine");
  const result = await k.call("run_actions", {
    actions: [{ tool: "click", arguments: { element_token: token, session: "other" } }],
    session: "mine",
  });
  assert.equal(result.structuredContent?.code, "permission_denied");
  assert.equal(result.structuredContent?.field, "actions.0.arguments.session");
  assert.equal(k.button.activations, 0);

  const same = await k.call("run_actions", {
    actions: [
      { tool: "click", arguments: { element_token: token, session: "mine" } },
      { tool: "click", arguments: { element_token: token } },
    ],
    session: "mine",
  });
  assert.equal(same.structuredContent?.completed, 2, textOf(same));
  assert.equal(k.button.activations, 2);
});
