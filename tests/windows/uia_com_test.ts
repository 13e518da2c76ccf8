/**
 * The UI Automation cached-subtree path through real COM calls, against fake COM
 * objects that replay recorded results: vtables of Deno.UnsafeCallbacks serving
 * GetCachedPropertyValue (VARIANTs with real BSTRs and SAFEARRAYs from oleaut32) and
 * GetCachedChildren / IUIAutomationElementArray. The tree must equal the one built
 * from the same recording without COM, and every reference must be released.
 *
 * Needs oleaut32, so it runs in the Windows suite (under Wine here); Wine's own UIA
 * cannot produce these results (its cache requests answer E_NOTIMPL).
 *
 * @module
 */
import assert from "node:assert/strict";
import type { VariantValue } from "../../ffi/windows/com.ts";
import { HRESULT } from "../../ffi/windows/com.ts";
import { oleaut32, VT } from "../../ffi/windows/oleaut32.ts";
import { UiaElement } from "../../ffi/windows/uia.ts";
import { ComCachedElement } from "../../src/backends/windows/uia/uia_com.ts";
import { buildUiaTree, type CachedElement } from "../../src/backends/windows/uia/uia_tree.ts";
import { onWindows } from "./_win_apps.ts";

interface Recorded {
  properties: Record<string, VariantValue>;
  children: Recorded[];
}

const recordings = onWindows
  ? JSON.parse(
    await Deno.readTextFile(
      new URL("../../src/backends/windows/uia/testdata/uia_recordings.json", import.meta.url),
    ),
  ) as { notepad: Recorded; find: Recorded }
  : null;

/** Fake COM objects over a recording; counts references. */
class FakeCom implements Disposable {
  readonly objects = new Map<
    bigint,
    { kind: "element" | "array"; node: Recorded; refs: number; memory: BigUint64Array }
  >();
  readonly #callbacks: Deno.UnsafeCallback[] = [];
  readonly #elementVtable: BigUint64Array;
  readonly #arrayVtable: BigUint64Array;

  constructor() {
    const notImpl = this.#callback({ parameters: ["pointer"], result: "i32" }, () => HRESULT.E_NOTIMPL);
    const qi = this.#callback(
      { parameters: ["pointer", "pointer", "pointer"], result: "i32" },
      () => HRESULT.E_NOINTERFACE,
    );
    const addRef = this.#callback(
      { parameters: ["pointer"], result: "u32" },
      (self) => ++this.#object(self).refs,
    );
    const release = this.#callback(
      { parameters: ["pointer"], result: "u32" },
      (self) => --this.#object(self).refs,
    );
    const property = this.#callback(
      { parameters: ["pointer", "i32", "pointer"], result: "i32" },
      (self, id, out) => {
        writeVariant(
          out as Deno.PointerObject,
          this.#object(self).node.properties[String(id)] ?? { vt: "empty" },
        );
        return HRESULT.S_OK;
      },
    );
    const children = this.#callback({ parameters: ["pointer", "pointer"], result: "i32" }, (self, out) => {
      const node = this.#object(self).node;
      writePointer(out as Deno.PointerObject, node.children.length ? this.create("array", node) : 0n);
      return HRESULT.S_OK;
    });
    const length = this.#callback({ parameters: ["pointer", "pointer"], result: "i32" }, (self, out) => {
      new Int32Array(Deno.UnsafePointerView.getArrayBuffer(out as Deno.PointerObject, 4))[0] =
        this.#object(self).node.children.length;
      return HRESULT.S_OK;
    });
    const element = this.#callback(
      { parameters: ["pointer", "i32", "pointer"], result: "i32" },
      (self, index, out) => {
        writePointer(
          out as Deno.PointerObject,
          this.create("element", this.#object(self).node.children[index as number]),
        );
        return HRESULT.S_OK;
      },
    );
    const slots = (count: number, filled: Record<number, bigint>) =>
      BigUint64Array.from({ length: count }, (_, i) => filled[i] ?? notImpl);
    // IUIAutomationElement: 0-2 IUnknown, 12 GetCachedPropertyValue, 19 GetCachedChildren (85 slots).
    this.#elementVtable = slots(85, { 0: qi, 1: addRef, 2: release, 12: property, 19: children });
    // IUIAutomationElementArray: 3 get_Length, 4 GetElement.
    this.#arrayVtable = slots(5, { 0: qi, 1: addRef, 2: release, 3: length, 4: element });
  }

  #callback(definition: Deno.UnsafeCallbackDefinition, fn: (...args: never[]) => unknown): bigint {
    const callback = new Deno.UnsafeCallback(definition, fn as Deno.UnsafeCallbackFunction);
    this.#callbacks.push(callback);
    return BigInt(Deno.UnsafePointer.value(callback.pointer));
  }

  #object(self: unknown) {
    const found = this.objects.get(BigInt(Deno.UnsafePointer.value(self as Deno.PointerObject)));
    if (!found) throw new Error("unknown fake COM object");
    return found;
  }

  /** A new object with one reference; returns its address. */
  create(kind: "element" | "array", node: Recorded): bigint {
    const vtable = kind === "element" ? this.#elementVtable : this.#arrayVtable;
    const memory = new BigUint64Array([BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(vtable)))]);
    const address = BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(memory)));
    this.objects.set(address, { kind, node, refs: 1, memory });
    return address;
  }

  /** References still held, by kind. */
  outstanding(): number {
    return [...this.objects.values()].reduce((sum, o) => sum + o.refs, 0);
  }

  [Symbol.dispose](): void {
    for (const callback of this.#callbacks) callback.close();
  }
}

function writePointer(out: Deno.PointerObject, address: bigint): void {
  new BigUint64Array(Deno.UnsafePointerView.getArrayBuffer(out, 8))[0] = address;
}

/** Writes a recorded value as a real VARIANT: BSTRs and SAFEARRAYs allocated by oleaut32. */
function writeVariant(out: Deno.PointerObject, value: VariantValue): void {
  const view = new DataView(Deno.UnsafePointerView.getArrayBuffer(out, 24));
  for (let i = 0; i < 24; i++) view.setUint8(i, 0);
  switch (value.vt) {
    case "string": {
      const units = new Uint16Array(value.value.length + 1);
      for (let i = 0; i < value.value.length; i++) units[i] = value.value.charCodeAt(i);
      view.setUint16(0, VT.BSTR, true);
      view.setBigUint64(8, BigInt(Deno.UnsafePointer.value(oleaut32.symbols.SysAllocString(units))), true);
      return;
    }
    case "number":
      if (Number.isInteger(value.value)) {
        view.setUint16(0, VT.I4, true);
        view.setInt32(8, value.value, true);
      } else {
        view.setUint16(0, VT.R8, true);
        view.setFloat64(8, value.value, true);
      }
      return;
    case "bool":
      view.setUint16(0, VT.BOOL, true);
      view.setInt16(8, value.value ? -1 : 0, true);
      return;
    case "array": {
      const array = oleaut32.symbols.SafeArrayCreateVector(VT.R8, 0, value.value.length)!;
      const cell = new BigUint64Array(1);
      oleaut32.symbols.SafeArrayAccessData(array, cell);
      new Float64Array(
        Deno.UnsafePointerView.getArrayBuffer(Deno.UnsafePointer.create(cell[0])!, value.value.length * 8),
      )
        .set(value.value);
      oleaut32.symbols.SafeArrayUnaccessData(array);
      view.setUint16(0, VT.ARRAY | VT.R8, true);
      view.setBigUint64(8, BigInt(Deno.UnsafePointer.value(array)), true);
      return;
    }
    default:
      return;
  }
}

class RecordedElement implements CachedElement {
  constructor(readonly recorded: Recorded) {}
  property(id: number): VariantValue {
    return this.recorded.properties[String(id)] ?? { vt: "empty" };
  }
  children(): CachedElement[] {
    return this.recorded.children.map((c) => new RecordedElement(c));
  }
}

for (const name of ["notepad", "find"] as const) {
  Deno.test({
    name:
      `ComCachedElement reads the ${name} recording through COM vtables into the same tree, releasing every reference`,
    ignore: !onWindows,
    fn() {
      using com = new FakeCom();
      const recording = recordings![name];
      const root = new UiaElement(Deno.UnsafePointer.create(com.create("element", recording))!);
      const owned = new Set<UiaElement>();
      const options = { maxNodes: 500, maxDepth: 30 };
      const viaCom = buildUiaTree(new ComCachedElement(root, owned), 9, options, () => {});
      const direct = buildUiaTree(new RecordedElement(recording), 9, options, () => {});
      assert.deepEqual(viaCom, direct);
      assert.ok(viaCom.nodes.length > 5);
      assert.equal(owned.size, viaCom.nodes.length, "one element object per node");
      for (const element of owned) element.release();
      assert.equal(com.outstanding(), 0, "every element and array reference was released");
    },
  });
}
