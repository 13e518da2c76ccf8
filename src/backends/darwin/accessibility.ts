/**
 * The macOS {@linkcode AccessibilityBackend}: a window's AX tree read node by node with
 * one `AXUIElementCopyMultipleAttributeValues` round trip per node (plus its action
 * names), mapped onto the neutral vocabulary, and operations on one element.
 *
 * Element references are CF objects: each node of a snapshot holds one retained
 * AXUIElementRef. The last {@linkcode GENERATIONS_KEPT} snapshots of each window stay
 * usable; older ones are released, and their tokens answer `stale_element_token`.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import type {
  AccessibilityBackend,
  AppStateSample,
  AxInterface,
  AxNode,
  AxRole,
  AxSnapshotOptions,
  AxTree,
  ElementState,
  ValueRange,
} from "../../ports/accessibility.ts";
import type { Rect } from "../../ports/geometry.ts";
import {
  type AxClient,
  type AxValue,
  booleanOf,
  numberOf,
  pointOf,
  rangeOf,
  sizeOf,
  textOf,
} from "./ax_client.ts";
import type { CFRef, Owned } from "./cf.ts";
import type { DarwinContext } from "./context.ts";
import { ElementRef, RefGenerations } from "./element_refs.ts";
import {
  CONTAINER_SELECTION_ROLES,
  FOCUSABLE_ROLES,
  neutralRole,
  platformRole,
  RANGE_ROLES,
  SELECTABLE_ROLES,
  TEXT_ROLES,
  TOGGLE_ROLES,
} from "./roles.ts";
import { requireAccessibility } from "./tcc.ts";
import { appToolkit } from "./toolkit.ts";
import { requireWindow } from "./window_list.ts";

/** Snapshots kept usable per window. */
export const GENERATIONS_KEPT = 4;

/** A walk never takes longer than this, however large the tree (the reference uses 30 s). */
export const WALK_DEADLINE_MS = 20_000;

/** How long Chromium gets to build its web content tree after AXManualAccessibility is first set. */
export const WEB_TREE_SETTLE_MS = 500;

/** Nodes of the app's menu bar read into one window snapshot, at most (menus come after the window's content). */
export const MENU_NODE_BUDGET = 400;

/** Attributes read for every node, in one round trip. */
const NODE_ATTRIBUTES = [
  "AXRole",
  "AXSubrole",
  "AXTitle",
  "AXDescription",
  "AXValue",
  "AXEnabled",
  "AXFocused",
  "AXSelected",
  "AXPosition",
  "AXSize",
  "AXChildren",
  "AXHelp",
  "AXPlaceholderValue",
  "AXMinValue",
] as const;
type NodeAttribute = typeof NODE_ATTRIBUTES[number];

/** Attributes read for an element's state. */
const STATE_ATTRIBUTES = [
  "AXRole",
  "AXSubrole",
  "AXEnabled",
  "AXFocused",
  "AXValue",
  "AXSelected",
  "AXPosition",
  "AXSize",
] as const;

/** Accessibility on macOS. */
export class DarwinAccessibility implements AccessibilityBackend {
  readonly #ctx: DarwinContext;
  readonly #ax: AxClient;
  readonly #refs = new RefGenerations(GENERATIONS_KEPT);
  readonly #lists = new Map<string, Owned>();
  readonly #enabledWeb = new Set<number>();

  constructor(ctx: DarwinContext, ax: AxClient) {
    this.#ctx = ctx;
    this.#ax = ax;
  }

  #names(names: readonly string[]): CFRef {
    const key = names.join(",");
    let list = this.#lists.get(key);
    if (!list) {
      list = this.#ax.nameList(names);
      this.#lists.set(key, list);
    }
    return list.ref;
  }

  /** Reads `names` of one element in one round trip, decoded; element values are dropped. */
  async #readMany<N extends string>(
    element: CFRef,
    names: readonly N[],
  ): Promise<Partial<Record<N, AxValue>>> {
    const { array, values } = await this.#ax.copyMany(element, this.#names(names), names.length);
    using _array = array;
    const out: Partial<Record<N, AxValue>> = {};
    names.forEach((name, i) => {
      const ref = values[i];
      if (ref !== null) out[name] = this.#ax.decode(ref);
    });
    return out;
  }

  /**
   * The AX tree of window `windowId` of `pid`, depth first, within the node and depth
   * budgets and {@linkcode WALK_DEADLINE_MS}.
   *
   * @throws {DriverError} `permission_denied` without Accessibility, `window_stale` when the
   *   window is gone.
   */
  async tree(
    pid: number,
    windowId: number,
    options: AxSnapshotOptions,
    signal: AbortSignal,
  ): Promise<AxTree> {
    requireAccessibility(this.#ctx, "Reading the accessibility tree");
    const row = requireWindow(this.#ctx, windowId);
    await this.#enableWebContent(pid);
    const root = await this.#ax.findWindow(pid, windowId, { bounds: row.bounds, title: row.title });
    if (!root) {
      return {
        nodes: [],
        truncated: false,
        error:
          `pid ${pid} exposes no accessibility window for window ${windowId} (minimized, or not an AppKit window)`,
      };
    }
    const generation = this.#refs.begin(`${pid}:${windowId}`);
    const nodes: AxNode[] = [];
    const stack: { element: Owned; depth: number; parent: number; menu: boolean }[] = [{
      element: root,
      depth: 0,
      parent: -1,
      menu: false,
    }];
    let menuNodes = 0;
    // The menu bar belongs to the app, not the window: it follows the window's own content (so a
    // node budget cuts menus first) as the root's last child, for invoke_menu and agents alike.
    const menuBar = await this.#menuBar(pid);
    if (menuBar) stack.unshift({ element: menuBar, depth: 1, parent: 0, menu: true });
    const deadline = Date.now() + WALK_DEADLINE_MS;
    let truncated = false;
    let stopped: string | null = null;
    try {
      while (stack.length) {
        if (nodes.length >= options.maxNodes || signal.aborted || Date.now() > deadline) {
          truncated = true;
          break;
        }
        const { element, depth, parent, menu } = stack.pop()!;
        if (menu && ++menuNodes > MENU_NODE_BUDGET) {
          // Menus beyond the budget are left out: a large app's menus must not slow every snapshot.
          element.release();
          truncated = true;
          continue;
        }
        const ref = generation.add(element, pid, windowId);
        let node: { node: AxNode; children: Owned[] };
        try {
          node = await this.#node(ref, depth, parent);
        } catch (error) {
          if (!(error instanceof DriverError)) throw error;
          // A node that vanished mid-walk, or one that answers with an error of its own, is skipped.
          if (error.code === "stale_element_token" || error.code === "native_call_failed") continue;
          // An app that stops answering ends the walk: what was read is kept, and the error says why.
          if (error.code === "timeout" && nodes.length > 0) {
            truncated = true;
            stopped = error.message;
            break;
          }
          throw error;
        }
        nodes.push(node.node);
        if (depth + 1 > options.maxDepth) {
          if (node.children.length) truncated = true;
          for (const child of node.children) child.release();
          continue;
        }
        const index = nodes.length - 1;
        for (let i = node.children.length - 1; i >= 0; i--) {
          stack.push({ element: node.children[i], depth: depth + 1, parent: index, menu });
        }
      }
    } finally {
      for (const left of stack) left.element.release();
    }
    return { nodes, truncated, error: stopped };
  }

  /** The app's menu bar (+1), or null when it has none (a background-only app). */
  async #menuBar(pid: number): Promise<Owned | null> {
    using app = this.#ax.application(pid);
    return await this.#ax.copy(app.ref, "AXMenuBar").catch(() => null);
  }

  /** Chromium builds its web content tree only for assistive clients that say so. */
  async #enableWebContent(pid: number): Promise<void> {
    if (this.#enabledWeb.has(pid) || appToolkit(this.#ctx, pid) !== "chromium") return;
    this.#enabledWeb.add(pid);
    using app = this.#ax.application(pid);
    if (await this.#ax.set(app.ref, "AXManualAccessibility", this.#ctx.cf.boolean(true))) {
      // Chromium builds the web content's tree after the flag is set, on its own time: give it a
      // moment once per process (cua-driver waits about 500 ms for the same reason).
      await new Promise((resolve) => setTimeout(resolve, WEB_TREE_SETTLE_MS));
    }
  }

  async #node(ref: ElementRef, depth: number, parent: number): Promise<{ node: AxNode; children: Owned[] }> {
    // Held for the node's reads: a concurrent snapshot of the window may release this generation.
    using held = this.#ctx.cf.retain(ref.element);
    const element = held.ref;
    const { array, values } = await this.#ax.copyMany(
      element,
      this.#names(NODE_ATTRIBUTES),
      NODE_ATTRIBUTES.length,
    );
    using _array = array;
    const read = (name: NodeAttribute): AxValue | null => {
      const value = values[NODE_ATTRIBUTES.indexOf(name)];
      return value === null ? null : this.#ax.decode(value);
    };
    const axRole = textOf(read("AXRole")) ?? "AXUnknown";
    const subrole = textOf(read("AXSubrole"));
    const role = neutralRole(axRole, subrole);
    ref.role = role;
    const actions = await this.#ax.actions(element);
    const rawValue = read("AXValue");
    const secure = subrole === "AXSecureTextField";
    const editable = TEXT_ROLES.has(role) && !secure ? await this.#ax.settable(element, "AXValue") : false;
    const position = pointOf(read("AXPosition"));
    const size = sizeOf(read("AXSize"));
    const frame = position && size
      ? { x: position.x, y: position.y, width: size.width, height: size.height }
      : null;
    const title = textOf(read("AXTitle")) ?? "";
    const description = textOf(read("AXDescription")) ?? "";
    const placeholder = textOf(read("AXPlaceholderValue")) ?? "";
    const focused = booleanOf(read("AXFocused")) ?? false;
    const interfaces: AxInterface[] = ["component", ...actions.length ? ["action" as const] : []];
    if (RANGE_ROLES.has(role) && typeof rawValue === "number") interfaces.push("value");
    if (TEXT_ROLES.has(role) || role === "label") interfaces.push("text");
    if (editable) interfaces.push("editable_text");
    if (CONTAINER_SELECTION_ROLES.has(role)) interfaces.push("selection");
    const node: AxNode = {
      role,
      platformRole: platformRole(axRole, subrole),
      name: title || description || (TEXT_ROLES.has(role) ? placeholder : ""),
      description: title ? description || (textOf(read("AXHelp")) ?? "") : textOf(read("AXHelp")) ?? "",
      value: secure ? null : displayValue(role, rawValue),
      depth,
      parent,
      enabled: booleanOf(read("AXEnabled")) ?? true,
      focused,
      selected: TOGGLE_ROLES.has(role)
        ? numberOf(rawValue) === 1
        : SELECTABLE_ROLES.has(role)
        ? booleanOf(read("AXSelected")) ?? false
        : null,
      showing: frame === null || (frame.width > 0 && frame.height > 0),
      editable,
      focusable: focused || FOCUSABLE_ROLES.has(role),
      actions,
      interfaces,
      frame,
      ref,
    };
    // Retained last, once nothing else can throw: the caller owns them from here.
    const childValue = read("AXChildren");
    const children = childValue !== null && typeof childValue === "object" && "elements" in childValue
      ? childValue.elements.map((child) => this.#ctx.cf.retain(child))
      : [];
    return { node, children };
  }

  #element(ref: unknown): ElementRef {
    if (!(ref instanceof ElementRef)) {
      throw new DriverError(
        "invalid_element_token",
        "The element reference is not a macOS accessibility element",
        {
          hint: "use an element_token from get_window_state",
        },
      );
    }
    if (!ref.live) {
      throw new DriverError(
        "stale_element_token",
        "The element's snapshot is too old: its reference was released",
        {
          hint: "call get_window_state to refresh element tokens",
        },
      );
    }
    return ref;
  }

  /**
   * The element of a reference, retained for one operation: a newer snapshot may release
   * the reference's generation while the operation awaits the app, and the element must
   * stay valid until the operation ends (dispose the result).
   */
  #hold(ref: unknown): Owned {
    return this.#ctx.cf.retain(this.#element(ref).element);
  }

  /** Action names of the element. */
  async actionNames(ref: unknown): Promise<string[]> {
    using held = this.#hold(ref);
    return await this.#ax.actions(held.ref);
  }

  /**
   * Performs a named action ("AXPress", "AXIncrement", ...).
   *
   * @throws {DriverError} `invalid_arguments` when the element has no such action.
   */
  async doAction(ref: unknown, actionName: string): Promise<boolean> {
    using held = this.#hold(ref);
    const element = held.ref;
    const actions = await this.#ax.actions(element);
    if (!actions.includes(actionName)) {
      throw new DriverError("invalid_arguments", `The element has no action "${actionName}"`, {
        actions,
        hint: `use one of: ${actions.join(", ") || "(none)"}`,
      });
    }
    return await this.#ax.perform(element, actionName);
  }

  /** The element's states, read now. */
  async state(ref: unknown): Promise<ElementState> {
    using held = this.#hold(ref);
    const handle = { element: held.ref };
    const values = await this.#readMany(handle.element, STATE_ATTRIBUTES);
    const role = neutralRole(textOf(values.AXRole ?? null) ?? "AXUnknown", textOf(values.AXSubrole ?? null));
    const enabled = booleanOf(values.AXEnabled ?? null) ?? true;
    const focused = booleanOf(values.AXFocused ?? null) ?? false;
    const toggle = TOGGLE_ROLES.has(role);
    const checked = toggle && numberOf(values.AXValue ?? null) === 1;
    const selected = booleanOf(values.AXSelected ?? null) ?? (role === "tab" && checked);
    const size = sizeOf(values.AXSize ?? null);
    const showing = size === null || (size.width > 0 && size.height > 0);
    const editable = TEXT_ROLES.has(role) && await this.#ax.settable(handle.element, "AXValue");
    const names = [
      ...enabled ? ["AXEnabled"] : [],
      ...focused ? ["AXFocused"] : [],
      ...selected ? ["AXSelected"] : [],
      ...checked ? ["AXValue=1"] : [],
      ...editable ? ["AXValue settable"] : [],
    ];
    const state: ElementState = {
      enabled,
      focused,
      focusable: focused || FOCUSABLE_ROLES.has(role),
      showing,
      visible: showing,
      editable,
      checked,
      checkable: toggle && role !== "tab",
      selected: selected || (toggle && checked),
      toggleable: toggle || SELECTABLE_ROLES.has(role),
      names,
    };
    return state;
  }

  /** Screen frame (AXPosition + AXSize), or null. */
  async frame(ref: unknown): Promise<Rect | null> {
    using held = this.#hold(ref);
    const values = await this.#readMany(held.ref, ["AXPosition", "AXSize"] as const);
    const position = pointOf(values.AXPosition ?? null);
    const size = sizeOf(values.AXSize ?? null);
    if (!position || !size || size.width <= 0 || size.height <= 0) return null;
    return { x: position.x, y: position.y, width: size.width, height: size.height };
  }

  /** The text of a text element (AXValue), or its title. */
  async text(ref: unknown): Promise<string> {
    using held = this.#hold(ref);
    const values = await this.#readMany(held.ref, ["AXValue", "AXTitle"] as const);
    const value = values.AXValue ?? null;
    return typeof value === "string" ? value : textOf(values.AXTitle ?? null) ?? "";
  }

  /**
   * The insertion point (the end of AXSelectedTextRange) in characters (code points, as
   * on the other platforms; AX counts UTF-16 units), -1 when unknown.
   */
  async caretOffset(ref: unknown): Promise<number> {
    using held = this.#hold(ref);
    const values = await this.#readMany(held.ref, ["AXValue", "AXSelectedTextRange"] as const);
    const range = rangeOf(values.AXSelectedTextRange ?? null);
    if (!range) return -1;
    const text = textOf(values.AXValue ?? null) ?? "";
    return [...text.slice(0, range.location + range.length)].length;
  }

  /** Inserts text at `offset` (characters): AXSelectedTextRange, then AXSelectedText. */
  async insertText(ref: unknown, offset: number, text: string): Promise<boolean> {
    using held = this.#hold(ref);
    const element = held.ref;
    const current = textOf(await this.#ax.read(element, "AXValue")) ?? "";
    const location = [...current].slice(0, Math.max(0, offset)).join("").length;
    using range = this.#ax.geometry({ range: { location, length: 0 } });
    if (!(await this.#ax.set(element, "AXSelectedTextRange", range.ref))) return false;
    using value = this.#ctx.cf.string(text);
    return await this.#ax.set(element, "AXSelectedText", value.ref);
  }

  /** Replaces the whole text (AXValue). */
  async setText(ref: unknown, text: string): Promise<boolean> {
    using held = this.#hold(ref);
    using value = this.#ctx.cf.string(text);
    return await this.#ax.set(held.ref, "AXValue", value.ref);
  }

  /** The numeric value and its range; `current` is NaN for an element without one. */
  async value(ref: unknown): Promise<ValueRange> {
    using held = this.#hold(ref);
    const values = await this.#readMany(held.ref, ["AXValue", "AXMinValue", "AXMaxValue"] as const);
    return {
      current: numberOf(values.AXValue ?? null) ?? NaN,
      min: numberOf(values.AXMinValue ?? null) ?? NaN,
      max: numberOf(values.AXMaxValue ?? null) ?? NaN,
      step: 0,
    };
  }

  /**
   * Sets a numeric value (AXValue).
   *
   * @throws {DriverError} `delivery_failed` when the app does not accept it.
   */
  async setValue(ref: unknown, value: number): Promise<void> {
    using held = this.#hold(ref);
    using number = this.#ctx.cf.number(value);
    if (!(await this.#ax.set(held.ref, "AXValue", number.ref))) {
      throw new DriverError("delivery_failed", `The element did not accept the value ${value}`, {
        hint: "the value may be read-only; use its actions (AXIncrement/AXDecrement) or act by pixel",
      });
    }
  }

  /** Gives the element keyboard focus (AXFocused = true). */
  async grabFocus(ref: unknown): Promise<boolean> {
    using held = this.#hold(ref);
    return await this.#ax.set(held.ref, "AXFocused", this.#ctx.cf.boolean(true));
  }

  /**
   * No accessibility sample yet on this platform: actions are judged by the window's
   * pixels (the witness's last resort) until the tree is compared here too.
   */
  sample(): Promise<AppStateSample | null> {
    return Promise.resolve(null);
  }

  /** Releases every element reference and cached name list. */
  close(): void {
    this.#refs.close();
    for (const list of this.#lists.values()) list.release();
    this.#lists.clear();
  }
}

/** An AXValue as the text shown to agents. */
function displayValue(role: AxRole, value: AxValue | null): string | null {
  if (value === null) return null;
  if (typeof value === "string") return value;
  if (typeof value === "number") return TOGGLE_ROLES.has(role) ? null : String(value);
  if (typeof value === "boolean") return null;
  return null;
}
