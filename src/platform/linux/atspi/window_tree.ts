/**
 * Builds the accessibility tree of one window: bulk-read the application's objects,
 * pick the top level that is the window, fill in what the bulk read leaves out, then
 * fetch frames, actions and values for the showing nodes, all pipelined.
 *
 * @module
 */
import type { AxNode, AxTree, Rect } from "../../types.ts";
import type { ActionNameCache } from "./action_cache.ts";
import type { AtspiCaller } from "./atspi_bus.ts";
import { AppTree } from "./app_tree.ts";
import { DetailFetcher, type DetailStats, toRect } from "./enrich.ts";
import { fetchCacheItems, fetchChildren, walkObjects } from "./fetch_nodes.ts";
import { AtspiPath, CoordType, Iface, shortInterfaceNames } from "./interfaces.ts";
import type { RawNode } from "./raw_node.ts";
import { neutralRole, Role, roleName } from "./roles.ts";
import { decodeStates, hasState, State } from "./states.ts";
import { frameOffset, matchTopLevel } from "./window_match.ts";

/** Limits and inputs of {@linkcode buildWindowTree}. */
export interface WindowTreeOptions {
  maxNodes: number;
  maxDepth: number;
  /** The X11 client bounds of the window, used to pick its top level. */
  windowBounds: Promise<Rect | null>;
  signal?: AbortSignal;
  /** Action names kept between snapshots. */
  actionCache?: ActionNameCache;
}

/** Timings of the phases of one build, in milliseconds, for benchmarks. */
export interface WindowTreeTimings {
  /** Finding the application of the pid (and opening its peer socket). */
  locate: number;
  /** `Cache.GetItems` (or the object-by-object walk without a cache). */
  items: number;
  /** Picking the window's top level. */
  match: number;
  /** Reading what the cache left out, while the details of cached nodes are in flight. */
  supplement: number;
  /** Waiting for the remaining details. */
  details: number;
  total: number;
  stats: DetailStats;
  /** How the objects were read. */
  source: "cache" | "walk";
}

const TOP_LEVEL_ROLES: ReadonlySet<number> = new Set([
  Role.FRAME,
  Role.WINDOW,
  Role.DIALOG,
  Role.ALERT,
  Role.FILE_CHOOSER,
]);
const TOGGLE_ROLES = /check|radio|toggle|switch|page tab|menu item|list item|tree item|table cell/;

/**
 * The tree of the window of application `app` whose X11 bounds `options.windowBounds`
 * gives. When no top level can be told apart, the whole application is returned, rooted
 * at its application node.
 *
 * @throws {DBusError} When the application vanishes or does not answer.
 * @throws The signal's reason when aborted.
 */
export async function buildWindowTree(
  bus: AtspiCaller,
  app: string,
  options: WindowTreeOptions,
  timings?: Partial<WindowTreeTimings>,
): Promise<AxTree> {
  const { signal } = options;
  const t0 = performance.now();
  let source: WindowTreeTimings["source"] = "cache";
  let tree: AppTree;
  const cached = await abortable(fetchCacheItems(bus, app), signal);
  if (cached !== null && cached.length > 1) {
    tree = new AppTree(cached);
  } else {
    source = "walk";
    const walked = await abortable(
      walkObjects(
        bus,
        app,
        [{ path: AtspiPath.ROOT, parent: null, index: -1 }],
        options.maxNodes * 4 + 64,
        options.maxDepth + 1,
      ),
      signal,
    );
    tree = new AppTree(walked.nodes);
  }
  const t1 = performance.now();

  const { root, topLevelRect, bounds } = await abortable(
    pickWindowRoot(bus, app, tree, options.windowBounds),
    signal,
  );
  const t2 = performance.now();
  if (root === null) {
    return { nodes: [], truncated: false, error: `Application "${app}" exposes no accessible objects` };
  }

  // Details of the nodes known so far go out together with the supplement's calls and
  // keep the application busy while the supplement waits for its answers.
  const fetcher = new DetailFetcher(bus, app, options.actionCache);
  const supplemented = supplement(bus, app, tree, root, options);
  for (const { node } of preorder(tree, root, options).order) fetcher.request(node);
  await abortable(supplemented, signal);
  const t3 = performance.now();

  const { order, truncated } = preorder(tree, root, options);
  const details = await abortable(Promise.all(order.map(({ node }) => fetcher.request(node))), signal);
  const stats = fetcher.stats;
  // With one candidate its extents were not fetched up front; the root's frame is.
  const { dx, dy } = frameOffset(topLevelRect ?? (root === order[0]?.node ? details[0].frame : null), bounds);
  const nodes = order.map(({ node, depth, parent }, i): AxNode => {
    const states = decodeStates(node.states);
    const role = roleName(node.role);
    const frame = details[i].frame;
    return {
      role: neutralRole(role),
      platformRole: role,
      name: node.name,
      description: node.description,
      value: details[i].value,
      depth,
      parent,
      enabled: states.enabled,
      focused: states.focused,
      selected: states.toggleable || TOGGLE_ROLES.test(role) ? states.checked || states.selected : null,
      showing: states.showing,
      editable: states.editable,
      focusable: states.focusable,
      actions: details[i].actions,
      interfaces: shortInterfaceNames(node.interfaces),
      frame: frame && (dx || dy) ? { ...frame, x: frame.x + dx, y: frame.y + dy } : frame,
      ref: { bus: app, path: node.path },
    };
  });
  const t4 = performance.now();
  if (timings) {
    Object.assign(timings, {
      items: t1 - t0,
      match: t2 - t1,
      supplement: t3 - t2,
      details: t4 - t3,
      total: t4 - t0,
      stats,
      source,
    });
  }
  return { nodes, truncated, error: null };
}

/** Chooses the window's top level; falls back to the application root. */
async function pickWindowRoot(
  bus: AtspiCaller,
  app: string,
  tree: AppTree,
  windowBounds: Promise<Rect | null>,
): Promise<{ root: RawNode | null; topLevelRect: Rect | null; bounds: Rect | null }> {
  const appRoot = tree.get(AtspiPath.ROOT) ?? null;
  const topLevels = appRoot
    ? tree.children(AtspiPath.ROOT)
    : [...tree.nodes.values()].filter((n) => n.parent === null || n.parent === AtspiPath.ROOT);
  const framed = topLevels.filter((n) => TOP_LEVEL_ROLES.has(n.role));
  const candidates = framed.length > 0 ? framed : topLevels;
  if (candidates.length === 1) {
    // A single top level maps trivially; its frame comes with the other details.
    return { root: candidates[0], topLevelRect: null, bounds: await windowBounds.catch(() => null) };
  }
  const [rects, bounds] = await Promise.all([
    Promise.all(
      candidates.map((node) =>
        node.interfaces.includes(Iface.COMPONENT)
          ? bus.call(app, node.path, Iface.COMPONENT, "GetExtents", "u", [CoordType.SCREEN])
            .then((reply) => toRect(reply[0]), () => null)
          : null
      ),
    ),
    windowBounds.catch(() => null),
  ]);
  const chosen = matchTopLevel(
    candidates.map((node, i) => ({ rect: rects[i], showing: hasState(node.states, State.SHOWING) })),
    bounds,
  );
  if (chosen === null) return { root: appRoot ?? candidates[0] ?? null, topLevelRect: null, bounds };
  return { root: candidates[chosen], topLevelRect: rects[chosen], bounds };
}

/**
 * Fills the gaps of the bulk read inside the window: reads `GetChildren` of containers
 * whose children the cache leaves out (descendant-managing tables, count -1) or whose
 * child order it cannot give (index -1), then reads the missing children one by one.
 */
async function supplement(
  bus: AtspiCaller,
  app: string,
  tree: AppTree,
  root: RawNode,
  options: WindowTreeOptions,
): Promise<void> {
  const needChildren: RawNode[] = [];
  const stack: [RawNode, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node.children) continue; // already in GetChildren order (walked)
    const children = tree.children(node.path);
    const showing = hasState(node.states, State.SHOWING);
    const incomplete = showing && depth < options.maxDepth &&
      (node.childCount < 0 || hasState(node.states, State.MANAGES_DESCENDANTS) ||
        children.length < node.childCount);
    // Hidden containers keep the cache's order for index -1 children: not worth a call.
    if (incomplete || (showing && children.some((c) => c.index < 0))) needChildren.push(node);
    if (depth < options.maxDepth) { for (const child of children) stack.push([child, depth + 1]); }
  }
  if (needChildren.length === 0) return;
  const lists = await Promise.all(needChildren.map((node) => fetchChildren(bus, app, node.path)));
  const missing: { path: string; parent: string; index: number }[] = [];
  needChildren.forEach((node, i) => {
    const list = lists[i];
    if (list === null) return;
    tree.setChildren(node.path, list);
    list.forEach((path, index) => {
      if (!tree.get(path)) missing.push({ path, parent: node.path, index });
    });
  });
  if (missing.length === 0) return;
  const walked = await walkObjects(bus, app, missing, options.maxNodes, options.maxDepth);
  tree.add(walked.nodes);
}

/** Pre-order listing of the subtree under `root` within the node and depth budgets. */
export function preorder(
  tree: AppTree,
  root: RawNode,
  limits: { maxNodes: number; maxDepth: number },
): { order: { node: RawNode; depth: number; parent: number }[]; truncated: boolean } {
  const order: { node: RawNode; depth: number; parent: number }[] = [];
  let truncated = false;
  const seen = new Set<string>();
  const stack: { node: RawNode; depth: number; parent: number }[] = [{ node: root, depth: 0, parent: -1 }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (seen.has(entry.node.path)) continue; // cycles in broken trees
    if (order.length >= limits.maxNodes) {
      truncated = true;
      break;
    }
    seen.add(entry.node.path);
    const index = order.push(entry) - 1;
    const children = tree.children(entry.node.path);
    if (children.length === 0) continue;
    if (entry.depth >= limits.maxDepth) {
      truncated = true;
      continue;
    }
    for (let i = children.length - 1; i >= 0; i--) {
      stack.push({ node: children[i], depth: entry.depth + 1, parent: index });
    }
  }
  return { order, truncated };
}

/** Resolves like `promise`, or rejects with the signal's reason as soon as it aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
