/**
 * The cached UI Automation element as the tree builder reads it, served by COM: cached
 * property values (GetCachedPropertyValue, VARIANTs decoded and cleared) and cached
 * children (GetCachedChildren, an element array). Tested against fake COM objects that
 * replay recorded results (tests/windows/uia_com_test.ts).
 *
 * @module
 */
import { releasePointer, type VariantValue } from "../../../../ffi/windows/com.ts";
import type { UiaElement } from "../../../../ffi/windows/uia.ts";
import type { CachedElement } from "./uia_tree.ts";

/** A cached UIA element read through COM. */
export class ComCachedElement implements CachedElement {
  /**
   * @param element the element (one reference, owned by `owned`)
   * @param owned every element of the walk, so the caller can release those it does not keep
   */
  constructor(readonly element: UiaElement, readonly owned: Set<UiaElement> = new Set()) {
    owned.add(element);
  }
  property(id: number): VariantValue {
    try {
      const value = this.element.cachedProperty(id);
      // Unsupported properties come back as the ReservedNotSupportedValue object.
      if (value.vt === "unknown") {
        releasePointer(value.value);
        return { vt: "empty" };
      }
      return value;
    } catch {
      return { vt: "empty" };
    }
  }
  children(): CachedElement[] {
    const array = this.element.cachedChildren();
    if (!array) return [];
    try {
      return array.elements().map((e) => new ComCachedElement(e, this.owned));
    } finally {
      array.release();
    }
  }
}
