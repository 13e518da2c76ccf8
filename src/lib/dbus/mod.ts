/**
 * A small, fast D-Bus client: unix-socket transport, SASL EXTERNAL, the full type
 * system, pipelined calls, signals.
 *
 * @module
 */
export { parseAddress, sessionBusAddress, type SocketAddress } from "./address.ts";
export { bodyCodecFor, codecFor, readArrayEnd } from "./codec.ts";
export {
  type CallOptions,
  type ConnectOptions,
  DBusConnection,
  type MethodCall,
  type SignalListener,
} from "./connection.ts";
export { DBusError, DBusErrorName } from "./errors.ts";
export { type BodyReader, type Message, MessageFlag, MessageType } from "./message.ts";
export { MarshalError, Reader } from "./reader.ts";
export { getProperty, setProperty } from "./properties.ts";
export { type DBusType, parseSignature } from "./signature.ts";
export { isVariant, type Variant, variant } from "./variant.ts";
