/**
 * The Windows {@linkcode AccessibilityBackend}: a window's tree from UI Automation's
 * cached subtree where it answers (real Windows), else from its child windows, MSAA and
 * its menu bar (legacy apps, and everything under Wine); element operations by ref.
 *
 * COM is initialized (multithreaded apartment, as UI Automation clients should) on the
 * first call, never at import.
 *
 * @module
 */
import { handle } from "../../../ffi/windows/_win.ts";
import { COINIT, ole32 } from "../../../ffi/windows/ole32.ts";
import { TreeScope, type UiaElement, UiAutomation } from "../../../ffi/windows/uia.ts";
import type {
  AccessibilityBackend,
  AppStateSample,
  AxSnapshotOptions,
  AxTree,
  ElementState,
  ValueRange,
} from "../../ports/accessibility.ts";
import type { Rect } from "../../ports/geometry.ts";
import { PostedQueue } from "./input/post.ts";
import { descendantWindows, isWindow } from "./win32/hwnd.ts";
import { ElementOps } from "./uia/element_ops.ts";
import { hwndTree } from "./uia/hwnd_tree.ts";
import { asRef, type UiaRef } from "./uia/refs.ts";
import { sampleProcess } from "./uia/sample.ts";
import { buildUiaTree, SNAPSHOT_PROPERTIES } from "./uia/uia_tree.ts";
import { ComCachedElement } from "./uia/uia_com.ts";

/** Which source built the last tree of a window (reported by health checks and tests). */
export type TreeSource = "uia_cache" | "hwnd_msaa";

/** Accessibility on Windows. */
export class Win32Accessibility implements AccessibilityBackend {
  #automation: UiAutomation | null = null;
  #comReady = false;
  #uiaUnavailable: string | null = null;
  /** UIA elements of each window's latest snapshot, keyed by ref key. */
  readonly #elements = new Map<number, Map<string, UiaElement>>();
  readonly #ops = new ElementOps(new PostedQueue(), (ref) => this.#lookup(ref));
  /** The source of the latest tree per window. */
  readonly lastSource = new Map<number, TreeSource>();

  #initCom(): void {
    if (this.#comReady) return;
    // S_OK, S_FALSE (already initialized) and RPC_E_CHANGED_MODE (another model) all leave COM usable.
    ole32.symbols.CoInitializeEx(null, COINIT.MULTITHREADED);
    this.#comReady = true;
  }

  /** The UI Automation client, or null (with the reason kept) when it cannot be created. */
  automation(): UiAutomation | null {
    if (this.#automation) return this.#automation;
    if (this.#uiaUnavailable) return null;
    try {
      this.#initCom();
      this.#automation = UiAutomation.create();
    } catch (error) {
      this.#uiaUnavailable = (error as Error).message;
    }
    return this.#automation;
  }

  /** Why UI Automation is unavailable, or null. */
  get uiaUnavailableReason(): string | null {
    return this.#uiaUnavailable;
  }

  #lookup(ref: UiaRef): UiaElement | null {
    return this.#elements.get(ref.hwnd)?.get(ref.key) ?? null;
  }

  #forget(windowId: number): void {
    const elements = this.#elements.get(windowId);
    if (!elements) return;
    for (const element of elements.values()) element.release();
    this.#elements.delete(windowId);
  }

  /** The cached UIA subtree of a window, or null when UIA cannot answer a cache request. */
  #uiaTree(windowId: number, options: AxSnapshotOptions): AxTree | null {
    const automation = this.automation();
    if (!automation) return null;
    let root: UiaElement | null = null;
    try {
      using request = automation.createCacheRequest();
      for (const property of SNAPSHOT_PROPERTIES) request.addProperty(property);
      request.setTreeScope(TreeScope.Subtree);
      using view = automation.controlViewCondition();
      request.setTreeFilter(view);
      root = automation.elementFromHandleBuildCache(handle(windowId), request);
    } catch {
      return null;
    }
    if (!root) return null;
    const kept = new Map<string, UiaElement>();
    const owned = new Set<UiaElement>();
    const tree = buildUiaTree(new ComCachedElement(root, owned), windowId, options, (key, element) => {
      kept.set(key, (element as ComCachedElement).element);
    });
    // Children fetched past the node budget were never registered: release them now.
    const keptElements = new Set(kept.values());
    for (const element of owned) if (!keptElements.has(element)) element.release();
    // A bare root over a window with child controls means UIA only proxies the frame: fall back.
    if (tree.nodes.length <= 1 && descendantWindows(windowId).length > 0) {
      for (const element of kept.values()) element.release();
      return null;
    }
    this.#forget(windowId);
    this.#elements.set(windowId, kept);
    return tree;
  }

  tree(_pid: number, windowId: number, options: AxSnapshotOptions, _signal: AbortSignal): Promise<AxTree> {
    if (!isWindow(windowId)) {
      return Promise.resolve({ nodes: [], truncated: false, error: `window ${windowId} no longer exists` });
    }
    const uia = this.#uiaTree(windowId, options);
    if (uia) {
      this.lastSource.set(windowId, "uia_cache");
      return Promise.resolve(uia);
    }
    this.#initCom();
    this.lastSource.set(windowId, "hwnd_msaa");
    return Promise.resolve(hwndTree(windowId, options));
  }

  actionNames(ref: unknown): Promise<string[]> {
    return Promise.resolve(this.#ops.actionNames(asRef(ref)));
  }
  doAction(ref: unknown, actionName: string): Promise<boolean> {
    return this.#ops.doAction(asRef(ref), actionName);
  }
  state(ref: unknown): Promise<ElementState> {
    return Promise.resolve(this.#ops.state(asRef(ref)));
  }
  frame(ref: unknown): Promise<Rect | null> {
    return Promise.resolve(this.#ops.frame(asRef(ref)));
  }
  text(ref: unknown): Promise<string> {
    return Promise.resolve(this.#ops.text(asRef(ref)));
  }
  caretOffset(ref: unknown): Promise<number> {
    return Promise.resolve(this.#ops.caretOffset(asRef(ref)));
  }
  insertText(ref: unknown, offset: number, text: string): Promise<boolean> {
    return Promise.resolve(this.#ops.insertText(asRef(ref), offset, text));
  }
  setText(ref: unknown, text: string): Promise<boolean> {
    return Promise.resolve(this.#ops.setText(asRef(ref), text));
  }
  value(ref: unknown): Promise<ValueRange> {
    return Promise.resolve(this.#ops.value(asRef(ref)));
  }
  setValue(ref: unknown, value: number): Promise<void> {
    this.#ops.setValue(asRef(ref), value);
    return Promise.resolve();
  }
  grabFocus(ref: unknown): Promise<boolean> {
    return Promise.resolve(this.#ops.grabFocus(asRef(ref)));
  }

  /** Actions are confirmed only from the controls' own state (see sample.ts), never from pixels alone. */
  readonly confirmsFromStateOnly = true;

  /** The visible windows of `pid` and their controls by their own state, and the states of `refs`. */
  sample(pid: number, refs: readonly unknown[]): Promise<AppStateSample | null> {
    try {
      const own = refs.flatMap((ref) => {
        try {
          return [asRef(ref)];
        } catch {
          return [];
        }
      });
      return Promise.resolve(
        sampleProcess(pid, own, (ref) => this.#ops.state(ref), (ref) => this.#ops.text(ref)),
      );
    } catch {
      return Promise.resolve(null);
    }
  }

  /** Releases every held COM object. */
  close(): void {
    for (const windowId of [...this.#elements.keys()]) this.#forget(windowId);
    this.#automation?.release();
    this.#automation = null;
  }
}
