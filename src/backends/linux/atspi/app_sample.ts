/**
 * Sampling an application's accessible state for an action's before/after comparison:
 * one `Cache.GetItems` (role, name and states of every object the application has
 * registered), then the text, caret, selection and value of the focused object and of
 * the elements the action aims at, all pipelined.
 *
 * @module
 */
import type { AppStateSample } from "../../../ports/accessibility.ts";
import type { AtspiCaller } from "./atspi_bus.ts";
import { MAX_TEXT_CHARS } from "./enrich.ts";
import type { AtspiRef } from "./element_ops.ts";
import { fetchCacheItems } from "./fetch_nodes.ts";
import { Iface } from "./interfaces.ts";
import type { RawNode } from "./raw_node.ts";
import { Role, roleName } from "./roles.ts";
import { hasState, State } from "./states.ts";

/** Budget of every call of one sample: a busy app must not stall the action's verdict. */
const SAMPLE_CALL_MS = 1_500;
/** Budget of the bulk `Cache.GetItems` of a sample (LibreOffice's takes seconds when busy). */
const SAMPLE_BULK_MS = 8_000;

/**
 * States that change without the app's content changing: a window becoming active or
 * inactive (a foreground transaction restores it), the pointer hovering.
 */
const VOLATILE_STATES = [State.ACTIVE, State.ARMED];

/**
 * Samples application `app`. Objects inside tooltips are left out: a tooltip pops up
 * wherever a pointer rests, whatever the action did.
 *
 * @throws {DBusError} When the application is gone or does not answer.
 */
export async function sampleApp(
  bus: AtspiCaller,
  app: string,
  refs: readonly AtspiRef[],
  signal?: AbortSignal,
): Promise<AppStateSample> {
  const options = { timeoutMs: SAMPLE_CALL_MS, signal };
  const items = await fetchCacheItems(bus, app, { timeoutMs: SAMPLE_BULK_MS, signal }) ?? [];
  const byPath = new Map(items.map((node) => [node.path, node]));
  const objects = new Map<string, string>();
  let focus: string | null = null;
  for (const node of items) {
    if (insideTooltip(node, byPath)) continue;
    objects.set(node.path, fingerprint(node));
    if (hasState(node.states, State.FOCUSED) && !isTopLevel(node)) focus = node.path;
  }
  const wanted = new Map<string, readonly string[]>();
  if (focus !== null) wanted.set(focus, byPath.get(focus)!.interfaces);
  for (const ref of refs) {
    if (ref.bus !== app) continue;
    wanted.set(ref.path, byPath.get(ref.path)?.interfaces ?? ALL_FACETS);
  }
  const details = new Map<string, string>();
  await Promise.all(
    [...wanted].map(([path, interfaces]) =>
      readFacets(bus, app, path, interfaces, options).then((facets) => {
        for (const [facet, value] of facets) details.set(`${path}#${facet}`, value);
      })
    ),
  );
  return {
    objects,
    focus,
    details,
    describe(key: string): string {
      const node = byPath.get(key.split("#")[0]);
      if (!node) return "an element";
      return node.name ? `${roleName(node.role)} ${JSON.stringify(node.name)}` : roleName(node.role);
    },
  };
}

/** Interfaces assumed for an element the cache does not list: every facet is tried. */
const ALL_FACETS = [Iface.TEXT, Iface.VALUE];

function fingerprint(node: RawNode): string {
  const states = [...node.states];
  for (const state of VOLATILE_STATES) states[state >>> 5] &= ~(1 << (state & 31));
  return `${node.role}\u0001${node.name}\u0001${node.childCount}\u0001${states.join(",")}`;
}

function isTopLevel(node: RawNode): boolean {
  return node.role === Role.FRAME || node.role === Role.WINDOW || node.role === Role.DIALOG;
}

function insideTooltip(node: RawNode, byPath: ReadonlyMap<string, RawNode>): boolean {
  let current: RawNode | undefined = node;
  for (let hops = 0; current && hops < 64; hops++) {
    if (current.role === Role.TOOL_TIP) return true;
    current = current.parent === null ? undefined : byPath.get(current.parent);
  }
  return false;
}

/** Text, caret, selection, value and states of one object; facets it lacks are left out. */
async function readFacets(
  bus: AtspiCaller,
  app: string,
  path: string,
  interfaces: readonly string[],
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<[string, string][]> {
  const call = (iface: string, member: string, signature = "", body: unknown[] = []) =>
    bus.call(app, path, iface, member, signature, body, options).then((reply) => reply, () => null);
  const prop = (iface: string, name: string) =>
    call(Iface.PROPERTIES, "Get", "ss", [iface, name]).then((reply) =>
      reply ? (reply[0] as { value: unknown }).value : null
    );
  const reads: Promise<[string, string] | null>[] = [
    call(Iface.ACCESSIBLE, "GetState").then((reply) => reply ? ["states", String(reply[0])] : null),
  ];
  if (interfaces.includes(Iface.TEXT)) {
    reads.push(
      prop(Iface.TEXT, "CharacterCount").then(async (count) => {
        if (typeof count !== "number") return null;
        const reply = count > 0
          ? await call(Iface.TEXT, "GetText", "ii", [0, Math.min(count, MAX_TEXT_CHARS)])
          : [""];
        return reply ? ["text", `${count}:${reply[0]}`] : null;
      }),
      prop(Iface.TEXT, "CaretOffset").then((offset) =>
        typeof offset === "number" ? ["caret", `${offset}`] : null
      ),
      call(Iface.TEXT, "GetNSelections").then(async (reply) => {
        const n = typeof reply?.[0] === "number" ? reply[0] : 0;
        if (n <= 0) return ["selection", "none"];
        const range = await call(Iface.TEXT, "GetSelection", "i", [0]);
        return range ? ["selection", `${n}:${range[0]}-${range[1]}`] : null;
      }),
    );
  }
  if (interfaces.includes(Iface.VALUE)) {
    reads.push(
      prop(Iface.VALUE, "CurrentValue").then((value) => value === null ? null : ["value", String(value)]),
    );
  }
  return (await Promise.all(reads)).filter((entry): entry is [string, string] => entry !== null);
}
