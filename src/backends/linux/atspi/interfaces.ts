/**
 * AT-SPI D-Bus names: interfaces, well-known paths, and the short interface names
 * snapshots report.
 *
 * @module
 */
import type { AxInterface } from "../../../ports/accessibility.ts";

/** D-Bus interface names. */
export const Iface = {
  ACCESSIBLE: "org.a11y.atspi.Accessible",
  ACTION: "org.a11y.atspi.Action",
  APPLICATION: "org.a11y.atspi.Application",
  CACHE: "org.a11y.atspi.Cache",
  COMPONENT: "org.a11y.atspi.Component",
  EDITABLE_TEXT: "org.a11y.atspi.EditableText",
  REGISTRY: "org.a11y.atspi.Registry",
  SELECTION: "org.a11y.atspi.Selection",
  TABLE: "org.a11y.atspi.Table",
  TEXT: "org.a11y.atspi.Text",
  VALUE: "org.a11y.atspi.Value",
  PROPERTIES: "org.freedesktop.DBus.Properties",
} as const;

/** Well-known bus names and object paths. */
export const AtspiPath = {
  REGISTRY_NAME: "org.a11y.atspi.Registry",
  REGISTRY: "/org/a11y/atspi/registry",
  ROOT: "/org/a11y/atspi/accessible/root",
  CACHE: "/org/a11y/atspi/cache",
  /** The object path AT-SPI uses for "no object" in references. */
  NULL: "/org/a11y/atspi/null",
} as const;

/** `AtspiCoordType` values. */
export const CoordType = { SCREEN: 0, WINDOW: 1, PARENT: 2 } as const;

const SHORT_NAMES: Record<string, AxInterface> = {
  "org.a11y.atspi.Action": "action",
  "org.a11y.atspi.Value": "value",
  "org.a11y.atspi.Text": "text",
  "org.a11y.atspi.EditableText": "editable_text",
  "org.a11y.atspi.Component": "component",
  "org.a11y.atspi.Selection": "selection",
  "org.a11y.atspi.Table": "table",
  "org.a11y.atspi.TableCell": "table_cell",
  "org.a11y.atspi.Image": "image",
  "org.a11y.atspi.Hypertext": "hypertext",
  "org.a11y.atspi.Hyperlink": "hyperlink",
  "org.a11y.atspi.Document": "document",
  "org.a11y.atspi.Collection": "collection",
  "org.a11y.atspi.Application": "application",
};

/**
 * Short lowercase names of the D-Bus interfaces a node implements, in the given
 * order (`"org.a11y.atspi.EditableText"` → `"editable_text"`). `Accessible` and
 * unknown interfaces are left out. Objects share a handful of interface sets, so the
 * result is one frozen array per distinct set, shared by every node that has it.
 */
export function shortInterfaceNames(interfaces: readonly string[]): AxInterface[] {
  // Lists decoded from the cache are themselves shared (cache_rows.ts): known by identity.
  let short = byList.get(interfaces);
  if (short !== undefined) return short;
  const key = interfaces.join(",");
  short = byKey.get(key);
  if (short === undefined) {
    const names: AxInterface[] = [];
    for (const name of interfaces) {
      const found = SHORT_NAMES[name];
      if (found !== undefined) names.push(found);
    }
    short = Object.freeze(names) as AxInterface[];
    if (byKey.size < 1024) byKey.set(key, short);
  }
  if (Object.isFrozen(interfaces)) byList.set(interfaces, short);
  return short;
}

const byKey = new Map<string, AxInterface[]>();
const byList = new WeakMap<readonly string[], AxInterface[]>();
