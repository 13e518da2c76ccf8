/**
 * A scripted AT-SPI application for unit tests: answers the calls the tree and
 * element code makes, from a list of objects, and records every call.
 *
 * @module
 */
import { DBusError, DBusErrorName } from "../../../lib/dbus/mod.ts";
import type { AtspiCaller } from "./atspi_bus.ts";
import { AtspiPath, Iface } from "./interfaces.ts";

/** One object of the fake application. */
export interface FakeObject {
  path: string;
  parent: string | null;
  role: number;
  name?: string;
  description?: string;
  /** State bits (`State.*`). */
  states?: number[];
  /** Full interface names; Accessible is implied. */
  interfaces?: string[];
  extents?: [number, number, number, number];
  /** [canonical, localized] action names. */
  actions?: [string, string][];
  value?: number;
  text?: string;
  /** Left out of Cache.GetItems (like descendants of a table). */
  uncached?: boolean;
  /** Report index -1 in the cache (like popup menu items). */
  unindexed?: boolean;
  /** Report child count -1 in the cache. */
  unknownChildCount?: boolean;
}

/** The fake application's bus name. */
export const FAKE_APP = ":1.77";

/** A fake application implementing {@linkcode AtspiCaller}. */
export class FakeApp implements AtspiCaller {
  readonly calls: string[] = [];
  readonly objects = new Map<string, FakeObject>();
  /** Whether the application implements Cache.GetItems. */
  hasCache = true;
  /** `Application.ToolkitName` of the root object. */
  toolkit = "GTK";

  constructor(objects: FakeObject[]) {
    for (const object of objects) this.objects.set(object.path, object);
  }

  children(path: string): FakeObject[] {
    return [...this.objects.values()].filter((o) => o.parent === path);
  }

  call(
    app: string,
    path: string,
    iface: string,
    member: string,
    _signature?: string,
    body: readonly unknown[] = [],
  ): Promise<unknown[]> {
    this.calls.push(
      `${iface.replace("org.a11y.atspi.", "")}.${member}${path === AtspiPath.CACHE ? "" : " " + path}`,
    );
    try {
      return Promise.resolve(this.#answer(app, path, iface, member, body));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async property(app: string, path: string, iface: string, name: string): Promise<unknown> {
    const [value] = await this.call(app, path, Iface.PROPERTIES, "Get", "ss", [iface, name]);
    return (value as { value: unknown }).value;
  }

  #answer(app: string, path: string, iface: string, member: string, body: readonly unknown[]): unknown[] {
    if (app !== FAKE_APP) throw new DBusError(DBusErrorName.SERVICE_UNKNOWN, app);
    if (iface === Iface.CACHE && member === "GetItems") {
      if (!this.hasCache) throw new DBusError(DBusErrorName.UNKNOWN_METHOD, "no cache");
      return [[...this.objects.values()].filter((o) => !o.uncached).map((o) => this.#row(o))];
    }
    const o = this.objects.get(path);
    if (!o) throw new DBusError(DBusErrorName.UNKNOWN_OBJECT, path);
    const has = (name: string) => name === Iface.ACCESSIBLE || (o.interfaces ?? []).includes(name);
    if (iface === Iface.PROPERTIES && member === "Set") {
      o.value = (body[2] as { value: number }).value;
      return [];
    }
    if (iface === Iface.PROPERTIES) {
      const [target, name] = body as [string, string];
      if (!has(target)) throw new DBusError(DBusErrorName.UNKNOWN_METHOD, `${target} on ${path}`);
      const props: Record<string, [string, unknown]> = {
        Name: ["s", o.name ?? ""],
        Description: ["s", o.description ?? ""],
        ChildCount: ["i", this.children(path).length],
        CurrentValue: ["d", o.value ?? 0],
        CharacterCount: ["i", [...(o.text ?? "")].length],
        ToolkitName: ["s", this.toolkit],
        NActions: ["i", (o.actions ?? []).length],
      };
      const [signature, value] = props[name];
      return [{ signature, value }];
    }
    if (!has(iface)) throw new DBusError(DBusErrorName.UNKNOWN_METHOD, `${iface}.${member} on ${path}`);
    const kids = this.children(path);
    switch (`${iface}.${member}`) {
      case `${Iface.ACCESSIBLE}.GetChildren`:
        return [kids.map((k) => [FAKE_APP, k.path])];
      case `${Iface.ACCESSIBLE}.GetRole`:
        return [o.role];
      case `${Iface.ACCESSIBLE}.GetState`:
        return [stateWords(o.states ?? [])];
      case `${Iface.ACCESSIBLE}.GetInterfaces`:
        return [[Iface.ACCESSIBLE, ...(o.interfaces ?? [])]];
      case `${Iface.COMPONENT}.GetExtents`:
        return [o.extents ?? [0, 0, 0, 0]];
      case `${Iface.COMPONENT}.GrabFocus`:
        return [true];
      case `${Iface.ACTION}.GetActions`:
        return [(o.actions ?? []).map(([, localized]) => [localized, "", ""])];
      case `${Iface.ACTION}.GetName`:
        return [(o.actions ?? [])[body[0] as number][0]];
      case `${Iface.ACTION}.GetLocalizedName`:
        return [(o.actions ?? [])[body[0] as number][1]];
      case `${Iface.ACTION}.DoAction`:
        return [(body[0] as number) < (o.actions ?? []).length];
      case `${Iface.TEXT}.GetText`: {
        const [start, end] = body as [number, number];
        return [[...(o.text ?? "")].slice(start, end).join("")];
      }
      case `${Iface.EDITABLE_TEXT}.SetTextContents`:
        o.text = body[0] as string;
        return [true];
      case `${Iface.EDITABLE_TEXT}.InsertText`: {
        // Like GTK: the length is in UTF-8 bytes (Qt's UTF-16 units when toolkit is "Qt").
        const [position, text, length] = body as [number, string, number];
        const inserted = this.toolkit === "Qt"
          ? text.slice(0, length)
          : new TextDecoder().decode(new TextEncoder().encode(text).subarray(0, length));
        const chars = [...(o.text ?? "")];
        chars.splice(position, 0, inserted);
        o.text = chars.join("");
        return [true];
      }
    }
    throw new DBusError(DBusErrorName.UNKNOWN_METHOD, `${iface}.${member}`);
  }

  #row(o: FakeObject): unknown[] {
    const siblings = o.parent === null ? [] : this.children(o.parent);
    const kids = this.children(o.path);
    return [
      [FAKE_APP, o.path],
      [FAKE_APP, AtspiPath.ROOT],
      [FAKE_APP, o.parent ?? AtspiPath.NULL],
      o.unindexed ? -1 : siblings.indexOf(o),
      o.unknownChildCount ? -1 : kids.length,
      [Iface.ACCESSIBLE, ...(o.interfaces ?? [])],
      o.name ?? "",
      o.role,
      o.description ?? "",
      stateWords(o.states ?? []),
    ];
  }
}

/** Packs state bits into the two-word wire form. */
export function stateWords(states: number[]): number[] {
  const words = [0, 0];
  for (const state of states) words[state >>> 5] = (words[state >>> 5] | (1 << (state & 31))) >>> 0;
  return words;
}
