/**
 * D-Bus message framing: header encoding and decoding (protocol version 1).
 *
 * @module
 */
import { bodyCodecFor, codecFor } from "./codec.ts";
import { MarshalError, Reader } from "./reader.ts";
import type { Writer } from "./writer.ts";

/** Message types of the fixed header. */
export const MessageType = {
  METHOD_CALL: 1,
  METHOD_RETURN: 2,
  ERROR: 3,
  SIGNAL: 4,
} as const;

/** Header flags. */
export const MessageFlag = {
  NO_REPLY_EXPECTED: 0x1,
  NO_AUTO_START: 0x2,
  ALLOW_INTERACTIVE_AUTHORIZATION: 0x4,
} as const;

/** Header field codes. */
const Field = {
  PATH: 1,
  INTERFACE: 2,
  MEMBER: 3,
  ERROR_NAME: 4,
  REPLY_SERIAL: 5,
  DESTINATION: 6,
  SENDER: 7,
  SIGNATURE: 8,
  UNIX_FDS: 9,
} as const;

/** One decoded or to-be-encoded message. */
export interface Message {
  type: number;
  flags: number;
  serial: number;
  path?: string;
  interface?: string;
  member?: string;
  errorName?: string;
  replySerial?: number;
  destination?: string;
  sender?: string;
  /** Body signature; `""` for no body. */
  signature: string;
  body: unknown[];
}

/** Size of the fixed part of the header, up to and including the header-field array length. */
export const FIXED_HEADER_SIZE = 16;

/**
 * The total length of the message starting at `at`, from its first 16 bytes.
 *
 * @throws {MarshalError} When the endianness marker or version is wrong.
 */
export function messageLength(bytes: Uint8Array, view: DataView, at: number): number {
  const endian = bytes[at];
  if (endian !== 0x6c && endian !== 0x42) {
    throw new MarshalError(`Bad endianness marker 0x${endian.toString(16)}`);
  }
  const le = endian === 0x6c;
  const bodyLength = view.getUint32(at + 4, le);
  const fieldsLength = view.getUint32(at + 12, le);
  return FIXED_HEADER_SIZE + ((fieldsLength + 7) & ~7) + bodyLength;
}

function field(w: Writer, code: number, sig: string, value: string | number): void {
  w.align(8);
  w.byte(code);
  w.signature(sig);
  if (sig === "u") w.uint32(value as number);
  else if (sig === "g") w.signature(value as string);
  else w.string(value as string);
}

/**
 * Appends `message` to `w`. Messages follow each other with no padding in a stream,
 * so the message start becomes the alignment base.
 *
 * @throws {TypeError} When the body does not match the signature.
 */
export function encodeMessage(w: Writer, message: Message): void {
  const start = w.pos;
  w.base = start;
  try {
    w.ensure(16);
    const b = w.bytes;
    b[start] = 0x6c; // 'l'
    b[start + 1] = message.type;
    b[start + 2] = message.flags;
    b[start + 3] = 1;
    w.view.setUint32(start + 8, message.serial, true);
    w.pos = start + 12;
    w.uint32(0); // header field array length, patched below
    const fieldsStart = w.pos;
    if (message.path !== undefined) field(w, Field.PATH, "o", message.path);
    if (message.interface !== undefined) field(w, Field.INTERFACE, "s", message.interface);
    if (message.member !== undefined) field(w, Field.MEMBER, "s", message.member);
    if (message.errorName !== undefined) field(w, Field.ERROR_NAME, "s", message.errorName);
    if (message.replySerial !== undefined) field(w, Field.REPLY_SERIAL, "u", message.replySerial);
    if (message.destination !== undefined) field(w, Field.DESTINATION, "s", message.destination);
    if (message.sender !== undefined) field(w, Field.SENDER, "s", message.sender);
    if (message.signature !== "") field(w, Field.SIGNATURE, "g", message.signature);
    w.view.setUint32(start + 12, w.pos - fieldsStart, true);
    w.align(8);
    const bodyStart = w.pos;
    if (message.signature !== "" || message.body.length > 0) {
      bodyCodecFor(message.signature).write(w, message.body);
    }
    w.view.setUint32(start + 4, w.pos - bodyStart, true);
  } catch (error) {
    w.pos = start; // drop the partial message so the buffer stays valid
    throw error;
  } finally {
    w.base = 0;
  }
}

/** Thrown when a message header decodes but its body does not; carries the header. */
export class BodyDecodeError extends MarshalError {
  constructor(readonly header: Message, options?: ErrorOptions) {
    super(`Cannot decode body of signature "${header.signature}"`, options);
  }
}

/**
 * Reads a message body of one signature into the caller's own shape, in place of the
 * generic codec (a big reply decoded straight into the objects its caller keeps, with no
 * intermediate arrays).
 */
export interface BodyReader {
  /** The body signature it reads; a body of another signature gets the generic codec. */
  readonly signature: string;
  /** Reads the whole body from `r` (positioned at the body start) and returns its values. */
  read(r: Reader): unknown[];
}

/**
 * Decodes the message at `bytes[at .. at + length)`.
 *
 * @param bodyReader Picks a {@linkcode BodyReader} for the body from the decoded header
 *   (undefined: the generic codec).
 * @throws {MarshalError} When the header is malformed; {@linkcode BodyDecodeError} when the body is.
 */
export function decodeMessage(
  bytes: Uint8Array,
  at: number,
  length: number,
  bodyReader?: (header: Message) => BodyReader | undefined,
): Message {
  const le = bytes[at] === 0x6c;
  const r = new Reader(bytes, le, at, at + length);
  r.pos = at + 1;
  const type = r.byte();
  const flags = r.byte();
  const version = r.byte();
  if (version !== 1) throw new MarshalError(`Unsupported protocol version ${version}`);
  r.uint32(); // body length, already used for framing
  const serial = r.uint32();
  const fieldsEnd = r.uint32() + r.pos;
  const message: Message = { type, flags, serial, signature: "", body: [] };
  while (r.pos < fieldsEnd) {
    r.align(8);
    const code = r.byte();
    const sig = r.signature();
    const value = sig === "u"
      ? r.uint32()
      : sig === "s" || sig === "o"
      ? r.string()
      : sig === "g"
      ? r.signature()
      : codecFor(sig).read(r);
    switch (code) {
      case Field.PATH:
        message.path = value as string;
        break;
      case Field.INTERFACE:
        message.interface = value as string;
        break;
      case Field.MEMBER:
        message.member = value as string;
        break;
      case Field.ERROR_NAME:
        message.errorName = value as string;
        break;
      case Field.REPLY_SERIAL:
        message.replySerial = value as number;
        break;
      case Field.DESTINATION:
        message.destination = value as string;
        break;
      case Field.SENDER:
        message.sender = value as string;
        break;
      case Field.SIGNATURE:
        message.signature = value as string;
        break;
        // UNIX_FDS and unknown fields are ignored, as the spec requires for unknown ones.
    }
  }
  r.align(8);
  if (message.signature === "") return message;
  try {
    const custom = bodyReader?.(message);
    message.body = custom !== undefined && custom.signature === message.signature
      ? custom.read(r)
      : bodyCodecFor(message.signature).read(r);
  } catch (error) {
    throw new BodyDecodeError(message, { cause: error });
  }
  return message;
}
