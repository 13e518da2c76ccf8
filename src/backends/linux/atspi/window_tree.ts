/**
 * Builds the accessibility tree of one window: bulk-read the application's objects,
 * pick the top level that is the window, fill in what the bulk read leaves out, then
 * fetch frames, actions and values for the showing nodes, all pipelined.
 *
 * @module
 */
import { PASSIVE_ROLES } from "../../../ports/ax_roles.ts";
import type { AxNode, AxRole, AxTree } from "../../../ports/accessibility.ts";
import type { Rect } from "../../../ports/geometry.ts";
import type { ActionNameCache } from "./action_cache.ts";
import type { AtspiCaller } from "./atspi_bus.ts";
import { AppTree } from "./app_tree.ts";
import { DetailFetcher, type DetailStats, type NodeDetails, toRect } from "./enrich.ts";
import { childrenOf, fetchCacheItems, walkObjects } from "./fetch_nodes.ts";
import { type AppToolkit, laysOutLate, needsOnScreenWalk, walkOnScreen } from "./onscreen_walk.ts";
import { AtspiPath, CoordType, Iface, shortInterfaceNames } from "./interfaces.ts";
import type { RawNode } from "./raw_node.ts";
import { neutralRole, Role, roleName } from "./roles.ts";
import { decodeStates, hasState, type NodeStates, State, type StateSet } from "./states.ts";
import { frameOffset, matchTopLevel } from "./window_match.ts";

/** Limits and inputs of {@linkcode buildWindowTree}. */
export interface WindowTreeOptions {
  maxNodes: number;
  maxDepth: number;
  /** Roles, names and states only (no per-object detail calls). */
  structureOnly?: boolean;
  /** No frame or action calls for objects an agent cannot act on (see AxSnapshotOptions). */
  actionableDetailsOnly?: boolean;
  /**
   * Called with the top level's own extents when the app reports window-relative
   * "screen" coordinates (GTK4), so later frame reads can be rebased the same way.
   */
  onWindowRelative?: (topLevel: Rect) => void;
  /** The X11 client bounds of the window, used to pick its top level. */
  windowBounds: Promise<Rect | null>;
  signal?: AbortSignal;
  /** Action names kept between snapshots. */
  actionCache?: ActionNameCache;
  /**
   * The application's toolkit: GTK4 marks no widget SHOWING (the window is then walked by
   * geometry, see onscreen_walk.ts); Gecko answers before its web content is laid out.
   */
  toolkit?: Promise<AppToolkit>;
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
/**
 * Budget of the one bulk `Cache.GetItems` call: an app with a big cache answers it in
 * seconds when busy (LibreOffice lists every menu of every module it loaded).
 */
const BULK_CALL_MS = 15_000;
/** Rounds of {@linkcode supplement} (each one for subtrees the previous round connected). */
const SUPPLEMENT_ROUNDS = 3;
/** Most objects read again when they answered before they were laid out, the pause before, the rounds. */
const MAX_REFETCH = 400;
const REFETCH_DELAY_MS = 150;
const REFETCH_ROUNDS = 3;
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
  const cached = await abortable(fetchCacheItems(bus, app, { timeoutMs: BULK_CALL_MS }), signal);
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

  let fetcher: DetailFetcher;
  let walkTruncated = false;
  let early: Preorder | null = null;
  let earlyDetails: Promise<NodeDetails[]> | null = null;
  const toolkit = await (options.toolkit ?? Promise.resolve({ name: "", version: "" }))
    .catch(() => ({ name: "", version: "" }));
  const actable = options.actionableDetailsOnly ? mayAct(root) : undefined;
  if (needsOnScreenWalk(toolkit) && !options.structureOnly) {
    const walk = await abortable(walkOnScreen(bus, app, tree, root, options), signal);
    walkTruncated = walk.truncated;
    fetcher = new DetailFetcher(bus, app, options.actionCache, walk, actable);
  } else {
    // Details of the nodes known so far go out together with the supplement's calls and
    // keep the application busy while the supplement waits for its answers.
    fetcher = options.structureOnly
      ? DetailFetcher.none()
      : new DetailFetcher(bus, app, options.actionCache, undefined, actable);
    const supplemented = supplement(bus, app, tree, root, options);
    early = preorder(tree, root, options);
    earlyDetails = fetcher.requestAll(early.order);
    earlyDetails.catch(() => {}); // awaited below unless the supplement changed the tree
    // Unchanged when every list read agreed with the cache's order and nothing was missing.
    if (await abortable(supplemented, signal)) early = earlyDetails = null;
  }
  const t3 = performance.now();

  const { order, truncated: preorderTruncated, total } = early ?? preorder(tree, root, options);
  const truncated = preorderTruncated || walkTruncated;
  const details = await abortable(earlyDetails ?? fetcher.requestAll(order), signal);
  // Showing objects that answered without geometry get more chances once the app had a
  // moment, where the toolkit lays out late (Firefox's web content).
  for (let round = 0; !options.structureOnly && laysOutLate(toolkit) && round < REFETCH_ROUNDS; round++) {
    const unready = order.flatMap(({ node }, i) =>
      details[i].frame === null && hasState(node.states, State.SHOWING) &&
        node.interfaces.includes(Iface.COMPONENT) && fetcher.readsFrame(node)
        ? [i]
        : []
    );
    if (unready.length === 0 || unready.length > MAX_REFETCH) break;
    await abortable(new Promise((resolve) => setTimeout(resolve, REFETCH_DELAY_MS)), signal);
    const again = await abortable(Promise.all(unready.map((i) => fetcher.refetch(order[i].node))), signal);
    unready.forEach((i, k) => details[i] = again[k]);
  }
  const stats = fetcher.stats;
  // With one candidate its extents were not fetched up front; the root's frame is.
  const topLevel = topLevelRect ?? (root === order[0]?.node ? details[0].frame : null);
  const { dx, dy } = frameOffset(topLevel, bounds);
  if (dx || dy) options.onWindowRelative?.(topLevel!);
  // Objects share a handful of state sets and roles: each is decoded once per build.
  const statesOf = new Map<StateSet, NodeStates>();
  const roles = new Map<number, { name: string; neutral: AxRole; toggle: boolean }>();
  const nodes = new Array<AxNode>(order.length);
  for (let i = 0; i < order.length; i++) {
    const { node, depth, parent } = order[i];
    let states = statesOf.get(node.states);
    if (states === undefined) statesOf.set(node.states, states = decodeStates(node.states));
    let role = roles.get(node.role);
    if (role === undefined) {
      const name = roleName(node.role);
      roles.set(node.role, role = { name, neutral: neutralRole(name), toggle: TOGGLE_ROLES.test(name) });
    }
    const { frame, value, actions } = details[i];
    nodes[i] = {
      role: role.neutral,
      platformRole: role.name,
      name: node.name,
      description: node.description,
      value,
      depth,
      parent,
      enabled: states.enabled,
      focused: states.focused,
      selected: states.toggleable || role.toggle ? states.checked || states.selected : null,
      showing: states.showing,
      editable: states.editable,
      focusable: states.focusable,
      actions: actions.length === 0 ? [] : actions, // the empty list of unfetched nodes is shared
      interfaces: shortInterfaceNames(node.interfaces),
      frame: frame && (dx || dy) ? { ...frame, x: frame.x + dx, y: frame.y + dy } : frame,
      ref: { bus: app, path: node.path },
    };
  }
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
  // Without the cache the walk itself stopped at the budget, so the window's size is unknown.
  return {
    nodes,
    truncated,
    error: null,
    ...(source === "cache" && !walkTruncated ? { totalNodes: total } : {}),
  };
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
 * Repeats for cached subtrees those lists connect (a cache whose parent links skip a
 * level: LibreOffice's root pane), a few rounds at most.
 */
async function supplement(
  bus: AtspiCaller,
  app: string,
  tree: AppTree,
  root: RawNode,
  options: WindowTreeOptions,
): Promise<boolean> {
  const visited = new Set<string>();
  let changed = false;
  for (let round = 0; round < SUPPLEMENT_ROUNDS; round++) {
    const needChildren: RawNode[] = [];
    const stack: RawNode[] = [root];
    const depths: number[] = [0];
    while (stack.length > 0) {
      const node = stack.pop()!;
      const depth = depths.pop()!;
      const children = tree.children(node.path);
      if (depth < options.maxDepth) {
        for (const child of children) {
          stack.push(child);
          depths.push(depth + 1);
        }
      }
      if (visited.has(node.path)) continue;
      visited.add(node.path);
      if (node.children) continue; // already in GetChildren order (walked)
      if (!hasState(node.states, State.SHOWING)) continue;
      const incomplete = depth < options.maxDepth &&
        (node.childCount < 0 || hasState(node.states, State.MANAGES_DESCENDANTS) ||
          children.length < node.childCount);
      // Hidden containers keep the cache's order for index -1 children: not worth a call.
      if (incomplete || hasUnindexed(children)) needChildren.push(node);
    }
    if (needChildren.length === 0) return changed;
    const before = needChildren.map((node) => tree.children(node.path));
    const lists = await Promise.all(needChildren.map((node) => childrenOf(bus, app, node)));
    const missing = tree.adoptChildren(needChildren, lists);
    changed ||= missing.length > 0 || lists.some((list, i) => list !== null && !samePaths(list, before[i]));
    if (missing.length > 0) {
      const walked = await walkObjects(bus, app, missing, options.maxNodes, options.maxDepth);
      tree.add(walked.nodes);
      for (const node of walked.nodes) visited.add(node.path);
    }
  }
  return changed;
}

function hasUnindexed(children: readonly RawNode[]): boolean {
  for (const child of children) {
    if (child.index < 0) return true;
  }
  return false;
}

function samePaths(paths: readonly string[], nodes: readonly RawNode[]): boolean {
  if (paths.length !== nodes.length) return false;
  for (let i = 0; i < paths.length; i++) {
    if (paths[i] !== nodes[i].path) return false;
  }
  return true;
}

/**
 * Pre-order listing of the subtree under `root` within the node and depth budgets, and
 * `total`: how many nodes the subtree has within the depth budget (past the node budget the
 * walk goes on counting, so a cut tree can say how much it left out).
 */
/** What {@linkcode preorder} lists. */
export interface Preorder {
  order: { node: RawNode; depth: number; parent: number }[];
  truncated: boolean;
  total: number;
}

export function preorder(
  tree: AppTree,
  root: RawNode,
  limits: { maxNodes: number; maxDepth: number },
): Preorder {
  const order: { node: RawNode; depth: number; parent: number }[] = [];
  let truncated = false;
  let total = 0;
  const seen = new Set<string>();
  const stack: { node: RawNode; depth: number; parent: number }[] = [{ node: root, depth: 0, parent: -1 }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (seen.has(entry.node.path)) continue; // cycles in broken trees
    seen.add(entry.node.path);
    total++;
    const full = order.length >= limits.maxNodes;
    if (full) truncated = true;
    const index = full ? -1 : order.push(entry) - 1;
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
  return { order, truncated, total };
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

/**
 * Whether an object could get an element index, as far as the cache tells (enabled, not a passive
 * role): only those need their frame and actions read. The top level always does: its frame rebases
 * window-relative coordinates.
 */
function mayAct(root: RawNode): (node: RawNode) => boolean {
  const passive = new Map<number, boolean>();
  return (node) => {
    if (node === root) return true;
    if (!hasState(node.states, State.ENABLED) && !hasState(node.states, State.SENSITIVE)) return false;
    let isPassive = passive.get(node.role);
    if (isPassive === undefined) {
      passive.set(node.role, isPassive = PASSIVE_ROLES.has(neutralRole(roleName(node.role))));
    }
    return !isPassive;
  };
}
