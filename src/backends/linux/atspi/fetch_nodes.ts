/**
 * Reading an application's objects: in bulk with `Cache.GetItems`, or object by
 * object (pipelined one tree level at a time) for toolkits without the cache and
 * for containers the cache leaves out (descendant-managing tables and lists).
 *
 * @module
 */
import type { CallOptions } from "../../../lib/dbus/mod.ts";
import type { AtspiCaller } from "./atspi_bus.ts";
import { CacheRows, cacheRowsReader } from "./cache_rows.ts";
import { AtspiPath, Iface } from "./interfaces.ts";
import { fromCacheItem, type RawNode } from "./raw_node.ts";
import { hasState, State } from "./states.ts";
import { isHugeTable, visibleCells } from "./table_cells.ts";

/**
 * All objects of an application from `Cache.GetItems`.
 *
 * @returns The nodes, or null when the application has no usable cache.
 * @throws {DBusError} When the application is gone or does not answer in time.
 */
export async function fetchCacheItems(
  bus: AtspiCaller,
  app: string,
  options?: CallOptions,
): Promise<RawNode[] | null> {
  let items: unknown;
  try {
    [items] = await bus.call(app, AtspiPath.CACHE, Iface.CACHE, "GetItems", "", [], {
      ...options,
      reply: cacheRowsReader,
    });
  } catch (error) {
    if (isMissingMethod(error)) return null;
    throw error;
  }
  if (items instanceof CacheRows) return items.nodes;
  // Another row shape (old at-spi2 versions), decoded by the generic codec.
  if (!Array.isArray(items)) return null;
  const out: RawNode[] = [];
  for (const item of items) {
    const node = fromCacheItem(item);
    if (node === null) return null;
    out.push(node);
  }
  return out;
}

/** What {@linkcode walkObjects} found. */
export interface WalkResult {
  nodes: RawNode[];
  /** True when the budget stopped the walk before every object was read. */
  truncated: boolean;
}

/**
 * Reads objects one by one, breadth first from `roots`, one pipelined round per level:
 * role, name, states, interfaces and children of every object of the level.
 *
 * @param roots Paths to read, with their parents (null for none) and their index.
 * @param budget Most objects to read.
 * @param maxLevels Most levels to descend below the roots (0 reads only the roots).
 * @param known Paths already read, which are not read again.
 */
export async function walkObjects(
  bus: AtspiCaller,
  app: string,
  roots: { path: string; parent: string | null; index: number }[],
  budget: number,
  maxLevels: number,
  known: ReadonlySet<string> = new Set(),
): Promise<WalkResult> {
  const nodes: RawNode[] = [];
  let level = roots.filter((r) => !known.has(r.path));
  const seen = new Set(level.map((r) => r.path));
  let truncated = false;
  for (let depth = 0; level.length > 0; depth++) {
    if (nodes.length + level.length > budget) {
      level = level.slice(0, Math.max(0, budget - nodes.length));
      truncated = true;
    }
    const read = await Promise.all(level.map((entry) => readObject(bus, app, entry)));
    // A spreadsheet lists no (or all 2^30) cells as children: read the ones on screen.
    await Promise.all(read.map(async (node) => {
      if (node === null || !hasState(node.states, State.MANAGES_DESCENDANTS)) return;
      if (await isHugeTable(bus, app, { ...node, childCount: -1 })) {
        node.children = await visibleCells(bus, app, node.path).catch(() => null) ?? node.children;
      }
    }));
    const next: typeof level = [];
    for (const node of read) {
      if (node === null) continue;
      nodes.push(node);
      if (depth >= maxLevels) {
        if (node.children!.length > 0) truncated = true;
        continue;
      }
      node.children!.forEach((child, index) => {
        if (seen.has(child) || known.has(child)) return;
        seen.add(child);
        next.push({ path: child, parent: node.path, index });
      });
    }
    level = next;
  }
  return { nodes, truncated };
}

/** Reads one object (role, states, interfaces, children, name); null when it vanished or does not answer. */
export async function readObject(
  bus: AtspiCaller,
  app: string,
  entry: { path: string; parent: string | null; index: number },
): Promise<RawNode | null> {
  const { path } = entry;
  const call = (member: string) => bus.call(app, path, Iface.ACCESSIBLE, member).then((r) => r[0]);
  const prop = (name: string) => bus.property(app, path, Iface.ACCESSIBLE, name).catch(() => "");
  try {
    // Description is left out (as cua-driver does): one call less per object.
    const [role, states, interfaces, children, name] = await Promise.all([
      call("GetRole"),
      call("GetState"),
      call("GetInterfaces").catch(() => []),
      call("GetChildren").catch(() => []),
      prop("Name"),
    ]);
    // Children on another bus name (an embedded process) are not followed.
    const childPaths = (children as [string, string][])
      .filter(([name]) => name === app || name === "")
      .map(([, childPath]) => childPath);
    return {
      path,
      parent: entry.parent,
      index: entry.index,
      childCount: childPaths.length,
      interfaces: interfaces as string[],
      name: typeof name === "string" ? name : "",
      role: role as number,
      description: "",
      states: states as number[],
      children: childPaths,
    };
  } catch {
    return null;
  }
}

/** Paths of the children of `path` in `GetChildren` order; null when the call fails. */
export async function fetchChildren(bus: AtspiCaller, app: string, path: string): Promise<string[] | null> {
  try {
    const [children] = await bus.call(app, path, Iface.ACCESSIBLE, "GetChildren");
    return (children as [string, string][]).filter(([name]) => name === app || name === "").map(([, p]) => p);
  } catch {
    return null;
  }
}

function isMissingMethod(error: unknown): boolean {
  const name = (error as { errorName?: string }).errorName ?? "";
  return name.endsWith(".UnknownMethod") || name.endsWith(".UnknownObject") ||
    name.endsWith(".UnknownInterface");
}

/**
 * Children of `node` in `GetChildren` order; for a huge table (a spreadsheet) only the
 * cells on screen, since listing all of them keeps the app busy for minutes. Null when
 * they cannot be read.
 */
export async function childrenOf(bus: AtspiCaller, app: string, node: RawNode): Promise<string[] | null> {
  if (await isHugeTable(bus, app, node)) return await visibleCells(bus, app, node.path).catch(() => null);
  return await fetchChildren(bus, app, node.path);
}
