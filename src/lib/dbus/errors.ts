/**
 * The typed error of a failed D-Bus call.
 *
 * @module
 */

/** Well-known error names used by this client for local failures. */
export const DBusErrorName = {
  TIMEOUT: "org.freedesktop.DBus.Error.Timeout",
  NO_REPLY: "org.freedesktop.DBus.Error.NoReply",
  DISCONNECTED: "org.freedesktop.DBus.Error.Disconnected",
  UNKNOWN_METHOD: "org.freedesktop.DBus.Error.UnknownMethod",
  UNKNOWN_OBJECT: "org.freedesktop.DBus.Error.UnknownObject",
  SERVICE_UNKNOWN: "org.freedesktop.DBus.Error.ServiceUnknown",
  AUTH_FAILED: "org.freedesktop.DBus.Error.AuthFailed",
  BAD_MESSAGE: "org.freedesktop.DBus.Error.InconsistentMessage",
  ABORTED: "cua.Error.Aborted",
} as const;

/**
 * A D-Bus error reply, or a local failure expressed the same way (timeout,
 * disconnect). `errorName` is the D-Bus error name.
 */
export class DBusError extends Error {
  override name = "DBusError";
  constructor(
    /** The D-Bus error name, such as `org.freedesktop.DBus.Error.UnknownMethod`. */
    readonly errorName: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message ? `${errorName}: ${message}` : errorName, options);
  }
}
