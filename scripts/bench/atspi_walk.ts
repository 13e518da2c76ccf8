/**
 * Baseline for the benchmark: a plain per-node libatspi walk (role, name,
 * states, extents, action names for every node) of one app, as the reference
 * and most AT-SPI clients do it. Prints JSON {nodes, ms[]} for `runs` walks.
 *
 *     deno run -A scripts/bench/atspi_walk.ts <pid> [runs]
 */
const A = Deno.dlopen("libatspi.so.0", {
  atspi_init: { parameters: [], result: "i32" },
  atspi_get_desktop: { parameters: ["i32"], result: "pointer" },
  atspi_accessible_get_child_count: { parameters: ["pointer", "buffer"], result: "i32" },
  atspi_accessible_get_child_at_index: { parameters: ["pointer", "i32", "buffer"], result: "pointer" },
  atspi_accessible_get_name: { parameters: ["pointer", "buffer"], result: "pointer" },
  atspi_accessible_get_role_name: { parameters: ["pointer", "buffer"], result: "pointer" },
  atspi_accessible_get_process_id: { parameters: ["pointer", "buffer"], result: "u32" },
  atspi_accessible_get_state_set: { parameters: ["pointer"], result: "pointer" },
  atspi_accessible_get_component_iface: { parameters: ["pointer"], result: "pointer" },
  atspi_component_get_extents: { parameters: ["pointer", "i32", "buffer"], result: "pointer" },
  atspi_accessible_get_action_iface: { parameters: ["pointer"], result: "pointer" },
  atspi_action_get_n_actions: { parameters: ["pointer", "buffer"], result: "i32" },
  atspi_action_get_action_name: { parameters: ["pointer", "i32", "buffer"], result: "pointer" },
  atspi_accessible_clear_cache: { parameters: ["pointer"], result: "void" },
});
const G = Deno.dlopen("libglib-2.0.so.0", {
  g_free: { parameters: ["pointer"], result: "void" },
  g_clear_error: { parameters: ["buffer"], result: "void" },
});
const GO = Deno.dlopen("libgobject-2.0.so.0", {
  g_object_unref: { parameters: ["pointer"], result: "void" },
});

const err = new Uint8Array(8);
function take(p: Deno.PointerValue): string {
  if (!p) return "";
  const s = new Deno.UnsafePointerView(p).getCString();
  G.symbols.g_free(p);
  return s;
}
function clear() {
  if (new BigUint64Array(err.buffer)[0] !== 0n) G.symbols.g_clear_error(err);
}

function walk(node: Deno.PointerObject): number {
  let count = 1;
  take(A.symbols.atspi_accessible_get_role_name(node, err));
  clear();
  take(A.symbols.atspi_accessible_get_name(node, err));
  clear();
  const states = A.symbols.atspi_accessible_get_state_set(node);
  if (states) GO.symbols.g_object_unref(states);
  const component = A.symbols.atspi_accessible_get_component_iface(node);
  if (component) {
    const rect = A.symbols.atspi_component_get_extents(component, 0, err);
    clear();
    if (rect) G.symbols.g_free(rect);
    GO.symbols.g_object_unref(component);
  }
  const action = A.symbols.atspi_accessible_get_action_iface(node);
  if (action) {
    const n = A.symbols.atspi_action_get_n_actions(action, err);
    clear();
    for (let i = 0; i < n; i++) {
      take(A.symbols.atspi_action_get_action_name(action, i, err));
      clear();
    }
    GO.symbols.g_object_unref(action);
  }
  const children = A.symbols.atspi_accessible_get_child_count(node, err);
  clear();
  for (let i = 0; i < children; i++) {
    const child = A.symbols.atspi_accessible_get_child_at_index(node, i, err);
    clear();
    if (child) {
      count += walk(child);
      GO.symbols.g_object_unref(child);
    }
  }
  return count;
}

const pid = Number(Deno.args[0]);
const runs = Number(Deno.args[1] ?? 5);
A.symbols.atspi_init();
const desktop = A.symbols.atspi_get_desktop(0)!;
let app: Deno.PointerObject | null = null;
const apps = A.symbols.atspi_accessible_get_child_count(desktop, err);
for (let i = 0; i < apps; i++) {
  const candidate = A.symbols.atspi_accessible_get_child_at_index(desktop, i, err);
  clear();
  if (candidate && A.symbols.atspi_accessible_get_process_id(candidate, err) === pid) app = candidate;
  clear();
}
if (!app) {
  console.log(JSON.stringify({ error: `no AT-SPI app for pid ${pid}` }));
  Deno.exit(1);
}
const ms: number[] = [];
let nodes = 0;
for (let r = 0; r < runs; r++) {
  A.symbols.atspi_accessible_clear_cache(app);
  const t0 = performance.now();
  nodes = walk(app);
  ms.push(performance.now() - t0);
}
console.log(JSON.stringify({ nodes, ms }));
