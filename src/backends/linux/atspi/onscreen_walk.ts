/**
 * The window walk for toolkits that never mark their widgets SHOWING (GTK4 sets it on
 * top levels only) and whose `Cache.GetItems` lists only the objects some client has
 * already asked for (GTK4 creates an object's accessible on demand). Without this, a
 * fresh GTK4 window gives its frame and a few dozen objects.
 *
 * What is on screen is told by geometry instead: the walk goes down from the window's
 * top level one level at a time (every call of a level pipelined), reads each object it
 * does not know yet and the extents of every object with a Component, and leaves out a
 * subtree whose root has no area (GTK4 gives the pages of a stack that are not shown a
 * zero size). An object without a Component (a stack page's own accessible) is
 * structural and is walked through.
 *
 * @module
 */
import type { Rect } from "../../../ports/geometry.ts";
import type { AppTree } from "./app_tree.ts";
import type { AtspiCaller } from "./atspi_bus.ts";
import { toRect } from "./enrich.ts";
import { childrenOf, readObject } from "./fetch_nodes.ts";
import { CoordType, Iface } from "./interfaces.ts";
import type { RawNode } from "./raw_node.ts";
import { hasState, State } from "./states.ts";

/** What the walk found: the objects on screen and the extents it read on the way. */
export interface OnScreenWalk {
  /** Paths of the objects with an area on screen (or structural ones on the way to them). */
  onScreen: Set<string>;
  /** Extents read during the walk, by path (null: the object has no area). */
  frames: Map<string, Rect | null>;
  /** True when the node budget or the depth limit stopped the walk. */
  truncated: boolean;
}

/**
 * Walks the window under `root`, adding what it reads to `tree` (children lists in
 * `GetChildren` order, objects the cache did not have).
 */
export async function walkOnScreen(
  bus: AtspiCaller,
  app: string,
  tree: AppTree,
  root: RawNode,
  limits: { maxNodes: number; maxDepth: number },
): Promise<OnScreenWalk> {
  const onScreen = new Set<string>();
  const frames = new Map<string, Rect | null>();
  const seen = new Set<string>([root.path]);
  let level: RawNode[] = [root];
  let truncated = false;
  for (let depth = 0; level.length > 0; depth++) {
    const extents = await Promise.all(level.map((node) => readExtents(bus, app, node)));
    const descend: RawNode[] = [];
    level.forEach((node, i) => {
      if (extents[i] !== undefined) frames.set(node.path, extents[i]!);
      const structural = !node.interfaces.includes(Iface.COMPONENT);
      const shown = node === root || hasState(node.states, State.SHOWING) ||
        (hasState(node.states, State.VISIBLE) && (structural || extents[i] !== null));
      if (!shown) return;
      onScreen.add(node.path);
      descend.push(node);
    });
    if (depth >= limits.maxDepth) {
      if (descend.some((node) => node.childCount !== 0)) truncated = true;
      break;
    }
    // Children in GetChildren order; objects not read yet are read in the same round trip.
    const lists = await Promise.all(
      descend.map((node) => node.children ? Promise.resolve(node.children) : childrenOf(bus, app, node)),
    );
    const unknown = tree.adoptChildren(descend, lists);
    const read = await Promise.all(unknown.map((entry) => readObject(bus, app, entry)));
    tree.add(read.filter((node): node is RawNode => node !== null));
    const next: RawNode[] = [];
    for (const list of lists) {
      for (const path of list ?? []) {
        const node = tree.get(path);
        if (!node || seen.has(path)) continue;
        seen.add(path);
        if (onScreen.size + next.length >= limits.maxNodes) {
          truncated = true;
          break;
        }
        next.push(node);
      }
    }
    level = next;
  }
  return { onScreen, frames, truncated };
}

/** The object's screen extents: undefined without a Component, null without an area. */
async function readExtents(bus: AtspiCaller, app: string, node: RawNode): Promise<Rect | null | undefined> {
  if (!node.interfaces.includes(Iface.COMPONENT)) return undefined;
  try {
    const [extents] = await bus.call(app, node.path, Iface.COMPONENT, "GetExtents", "u", [CoordType.SCREEN]);
    return toRect(extents);
  } catch {
    return null;
  }
}

/** An application's toolkit as its `Application` object names it ("GTK" "4.8.3", "Gecko" "140.12.0"). */
export interface AppToolkit {
  name: string;
  version: string;
}

/** Reads an application's `ToolkitName` and `Version` (empty strings when it does not say). */
export async function appToolkit(bus: AtspiCaller, app: string): Promise<AppToolkit> {
  const read = (name: string) =>
    bus.property(app, "/org/a11y/atspi/accessible/root", Iface.APPLICATION, name).then(String, () => "");
  const [name, version] = await Promise.all([read("ToolkitName"), read("Version")]);
  return { name, version };
}

/** True for a toolkit that never sets SHOWING below its top levels: GTK 4. */
export function needsOnScreenWalk(toolkit: AppToolkit): boolean {
  return /^gtk$/i.test(toolkit.name) && /^4\./.test(toolkit.version);
}

/**
 * True for a toolkit that answers for an object before it is laid out: Gecko creates the
 * accessibles of web content on the first request and gives them no extents and no
 * actions until its content process has answered.
 */
export function laysOutLate(toolkit: AppToolkit): boolean {
  return /^gecko$/i.test(toolkit.name);
}
