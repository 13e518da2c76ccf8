/**
 * The tools/list contract: names, hints and risk classes as the reference
 * publishes them (contract.md §1), schemas as JSON Schema objects, and a
 * snapshot that changes only on purpose (regenerate with
 * `deno run -A scripts/gen_contract.ts`).
 */
import assert from "node:assert/strict";
import { CAPABILITY_VERSION, ToolCatalog, TOOLS_LIST_SCHEMA_VERSION } from "../../src/kernel/registry.ts";
import { allTools } from "../../tools/mod.ts";

/** Reference roster (contract.md §1.0, Linux order) for the tools this build registers. */
const REFERENCE_ORDER = [
  "list_apps",
  "list_windows",
  "get_window_state",
  "verify_state",
  "launch_app",
  "kill_app",
  "bring_to_front",
  "set_window_frame",
  "invoke_menu",
  "click",
  "double_click",
  "right_click",
  "drag",
  "mouse_button_down",
  "mouse_drag",
  "mouse_button_up",
  "parallel_mouse_drag",
  "type_text",
  "press_key",
  "hotkey",
  "set_value",
  "scroll",
  "clipboard_read",
  "clipboard_write",
  "get_screen_size",
  "get_desktop_state",
  "get_cursor_position",
  "move_cursor",
  // Not in the reference roster: run_actions comes from the seed's tool list (one call, many actions).
  "run_actions",
  "set_agent_cursor_enabled",
  "set_agent_cursor_motion",
  "get_agent_cursor_state",
  "set_agent_cursor_theme",
  "check_permissions",
  "health_report",
  "get_config",
  "set_config",
  "get_accessibility_tree",
  "zoom",
  // Not in the reference roster: parse_visual_regions and install_extension come from the seed's tool list.
  "parse_visual_regions",
  "page",
  "get_browser_state",
  "browser_prepare",
  "browser_navigate",
  "browser_click",
  "browser_type",
  "browser_dialog",
  "browser_set_input_files",
  "browser_download",
  "browser_pointer",
  "start_recording",
  "stop_recording",
  "get_recording_state",
  "replay_trajectory",
  "install_ffmpeg",
  "install_extension",
  "start_session",
  "escalate_session",
  "get_session",
  "list_sessions",
  "get_session_state",
  "end_session",
  "check_for_update",
];

/** RO/DE/ID/OW and risk class per tool (contract.md §1.2-§1.10). */
const EXPECTED: Record<string, [boolean, boolean, boolean, boolean, string]> = {
  list_apps: [true, false, true, false, "r2"],
  list_windows: [true, false, true, false, "r2"],
  get_window_state: [true, false, true, false, "r3"],
  launch_app: [false, false, false, true, "r1"],
  kill_app: [false, true, true, false, "r3"],
  bring_to_front: [false, false, true, false, "r1"],
  set_window_frame: [false, false, true, false, "r1"],
  clipboard_read: [true, false, false, false, "r2"],
  clipboard_write: [false, true, true, false, "r1"],
  get_screen_size: [true, false, true, false, "r0"],
  get_desktop_state: [true, false, false, false, "r3"],
  get_cursor_position: [true, false, true, false, "r0"],
  get_accessibility_tree: [true, false, true, false, "r2"],
  zoom: [true, false, true, false, "r2"],
  click: [false, true, false, true, "r1"],
  type_text: [false, true, false, true, "r1"],
  press_key: [false, true, false, true, "r1"],
  hotkey: [false, true, false, true, "r1"],
  double_click: [false, true, false, true, "r1"],
  right_click: [false, true, false, true, "r1"],
  drag: [false, true, false, true, "r1"],
  mouse_button_down: [false, true, false, true, "r1"],
  mouse_drag: [false, true, false, true, "r1"],
  mouse_button_up: [false, true, false, true, "r1"],
  parallel_mouse_drag: [false, true, false, true, "r1"],
  scroll: [false, false, false, true, "r1"],
  move_cursor: [false, false, true, false, "r1"],
  verify_state: [true, false, false, false, "r2"],
  invoke_menu: [false, true, false, true, "r1"],
  run_actions: [false, true, false, true, "r1"],
  // Recording (contract.md §1.9 hints, §1.0 risk classes).
  start_recording: [false, false, true, false, "r2"],
  stop_recording: [false, false, true, false, "r3"],
  get_recording_state: [true, false, true, false, "r0"],
  replay_trajectory: [false, true, false, false, "r3"],
  install_ffmpeg: [false, true, false, true, "r3"],
  // Agent cursor (contract.md §1.3).
  set_agent_cursor_enabled: [false, false, true, false, "r1"],
  set_agent_cursor_motion: [false, false, true, false, "r1"],
  set_agent_cursor_theme: [false, false, true, false, "r1"],
  get_agent_cursor_state: [true, false, true, false, "r0"],
  // Configuration and health (contract.md §1.0 risk classes, §1.10 hints).
  check_permissions: [true, false, true, false, "r2"],
  health_report: [true, false, true, false, "r0"],
  get_config: [true, false, true, false, "r0"],
  set_config: [false, false, true, false, "r2"],
  check_for_update: [true, false, true, true, "r0"],
  // Perception (the seed's tool list): a read-only parse, and a confirmed system package install.
  parse_visual_regions: [true, false, true, false, "r2"],
  install_extension: [false, true, false, true, "r3"],
  // Browser tools (contract.md §1.0 risk classes, §1.8 hints).
  page: [false, false, false, true, "r3"],
  get_browser_state: [true, false, true, false, "r2"],
  browser_prepare: [false, true, false, true, "r2"],
  browser_navigate: [false, false, false, true, "r2"],
  browser_click: [false, false, false, true, "r2"],
  browser_type: [false, false, false, true, "r2"],
  browser_pointer: [false, false, false, true, "r2"],
  browser_dialog: [false, false, false, true, "r3"],
  browser_set_input_files: [false, false, false, true, "r3"],
  browser_download: [false, true, false, true, "r3"],
};

const catalog = new ToolCatalog(allTools);

Deno.test("tools/list names are reference tools, in the reference's order", () => {
  const names = catalog.names;
  for (const name of names) assert.ok(REFERENCE_ORDER.includes(name), `${name} is not a reference tool`);
  const order = names.map((n) => REFERENCE_ORDER.indexOf(n));
  assert.deepEqual(order, [...order].sort((a, b) => a - b));
});

Deno.test("tools/list hints and risk classes match the reference (full listing), and the compact ones agree", () => {
  for (const name of catalog.names) {
    const full = catalog.fullListing(name)!;
    const expected = EXPECTED[name];
    const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = full.annotations!;
    if (expected) {
      assert.deepEqual(
        [readOnlyHint, destructiveHint, idempotentHint, openWorldHint, full.risk.class],
        expected,
        `hints of ${name}`,
      );
    }
    assert.equal(full.risk.operation_sensitive, full.risk.class === "r2" || full.risk.class === "r3");
    // The compact listing leaves out MCP's defaults and what a read-only tool's hints cannot mean.
    // (and the whole object when nothing is left).
    const compact = catalog.listing(name)!.annotations ?? {};
    assert.equal(compact.readOnlyHint ?? false, readOnlyHint, name);
    assert.equal(compact.openWorldHint ?? true, openWorldHint, name);
    if (!readOnlyHint) {
      assert.equal(compact.destructiveHint ?? true, destructiveHint, name);
      assert.equal(compact.idempotentHint ?? false, idempotentHint, name);
    }
    assert.equal(catalog.listing(name)!.risk.class, full.risk.class);
  }
});

Deno.test("tools/list schemas are closed JSON Schema objects; full output schemas have an error envelope branch", () => {
  for (const name of catalog.names) {
    const entry = catalog.listing(name)!;
    assert.equal(entry.inputSchema.type, "object", entry.name);
    assert.equal(entry.inputSchema.additionalProperties, false, `${entry.name} accepts unknown arguments`);
    assert.ok(entry.description.length > 20, `${entry.name} needs a real description`);
    const full = catalog.fullListing(name)!;
    if (full.outputSchema) {
      const anyOf = full.outputSchema.anyOf as Record<string, unknown>[];
      assert.equal(full.outputSchema.type, "object");
      assert.equal(anyOf.length, 2);
      assert.deepEqual(anyOf[1].anyOf, [{ required: ["refusal"] }, { required: ["status"] }, {
        required: ["code"],
      }]);
      // The published one names the success fields (but those only a parameter asks for) and requires
      // none, so a failure envelope passes too.
      assert.equal(entry.outputSchema?.type, "object");
      assert.equal(entry.outputSchema?.required, undefined);
      assert.deepEqual(
        Object.keys(entry.outputSchema?.properties as object),
        Object.entries((anyOf[0].properties ?? {}) as Record<string, { listed?: boolean }>)
          .filter(([, field]) => field.listed !== false).map(([name]) => name),
      );
    }
  }
});

Deno.test("tools/list costs at most 60 KB, the core profile under 20 KB, as a client receives it", () => {
  // The JSON-RPC response line the MCP transport writes (scripts/bench/sizes.ts measures it on the wire).
  const bytes = (tools: unknown) =>
    new TextEncoder().encode(
      JSON.stringify({
        result: { tools, capability_version: CAPABILITY_VERSION, schema_version: TOOLS_LIST_SCHEMA_VERSION },
        jsonrpc: "2.0",
        id: 2,
      }) + "\n",
    ).length;
  const all = bytes(catalog.list());
  const core = bytes(catalog.withListing({ profile: "core" }).list());
  assert.ok(all <= 60_000, `tools/list is ${all} bytes`);
  assert.ok(core < 20_000, `the core profile is ${core} bytes`);
  assert.equal(catalog.withListing({ profile: "core" }).list().length, 14);
});

Deno.test("tools/list leaves legacy tools and parameters out unless asked, and nothing is lost", () => {
  const listed = catalog.list().map((t) => t.name);
  const legacy = ["page", "escalate_session", "get_session_state"];
  for (const name of legacy) assert.ok(!listed.includes(name), `${name} is listed by default`);
  const withLegacy = catalog.withListing({ legacy: true }).list().map((t) => t.name);
  assert.deepEqual(withLegacy, catalog.names, "--legacy-tools lists every tool");
  const click = catalog.listing("click")!.inputSchema.properties as Record<string, unknown>;
  for (const name of ["pid", "window_id", "scope", "element_index", "snapshot_id", "cursor_id"]) {
    assert.equal(click[name], undefined, `click lists the legacy ${name}`);
  }
  // Still accepted: the schema the registry validates with keeps them.
  const parsed = catalog.get("click")!.input.safeParse({ pid: 4, window_id: 5, x: 1, y: 2 });
  assert.ok(parsed.success);
  const full = catalog.fullListing("click")!.inputSchema.properties as Record<string, unknown>;
  assert.ok(full.pid && full.element_index, "describe shows them");
});

Deno.test("tools/list matches the committed snapshot", async () => {
  const snapshot = JSON.parse(
    await Deno.readTextFile(new URL("../fixtures/tools_list.json", import.meta.url)),
  );
  assert.deepEqual(
    JSON.parse(JSON.stringify(catalog.list())),
    snapshot,
    "tools/list changed: review the change, then run deno run -A scripts/gen_contract.ts",
  );
});
