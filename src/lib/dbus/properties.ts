/**
 * `org.freedesktop.DBus.Properties` helpers.
 *
 * @module
 */
import type { CallOptions, DBusConnection } from "./connection.ts";
import type { Variant } from "./variant.ts";

const PROPERTIES = "org.freedesktop.DBus.Properties";

/**
 * Reads one property and unwraps its variant.
 *
 * @throws {DBusError} As {@linkcode DBusConnection.call}.
 */
export async function getProperty(
  bus: DBusConnection,
  destination: string,
  path: string,
  iface: string,
  name: string,
  options?: CallOptions,
): Promise<unknown> {
  const [value] = await bus.call(
    { destination, path, interface: PROPERTIES, member: "Get", signature: "ss", body: [iface, name] },
    options,
  );
  return (value as Variant).value;
}

/**
 * Writes one property.
 *
 * @throws {DBusError} As {@linkcode DBusConnection.call}.
 */
export async function setProperty(
  bus: DBusConnection,
  destination: string,
  path: string,
  iface: string,
  name: string,
  value: Variant,
  options?: CallOptions,
): Promise<void> {
  await bus.call(
    { destination, path, interface: PROPERTIES, member: "Set", signature: "ssv", body: [iface, name, value] },
    options,
  );
}
