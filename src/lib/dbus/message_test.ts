import assert from "node:assert/strict";
import { decodeMessage, encodeMessage, type Message, messageLength, MessageType } from "./message.ts";
import { MarshalError } from "./reader.ts";
import { Writer } from "./writer.ts";
import { GET_EXTENTS_CALL, RICH_BODY_BE, RICH_BODY_LE, UNKNOWN_METHOD_ERROR } from "./_gdbus_blobs.ts";

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const CALL: Message = {
  type: MessageType.METHOD_CALL,
  flags: 0,
  serial: 7,
  destination: ":1.42",
  path: "/org/a11y/atspi/accessible/7",
  interface: "org.a11y.atspi.Component",
  member: "GetExtents",
  signature: "u",
  body: [0],
};

Deno.test("decodeMessage reads a GDBus method call", () => {
  assert.equal(messageLength(GET_EXTENTS_CALL, view(GET_EXTENTS_CALL), 0), GET_EXTENTS_CALL.length);
  assert.deepEqual(decodeMessage(GET_EXTENTS_CALL, 0, GET_EXTENTS_CALL.length), CALL);
});

Deno.test("decodeMessage reads a GDBus error reply", () => {
  const error = decodeMessage(UNKNOWN_METHOD_ERROR, 0, UNKNOWN_METHOD_ERROR.length);
  assert.equal(error.type, MessageType.ERROR);
  assert.equal(error.replySerial, 7);
  assert.equal(error.errorName, "org.freedesktop.DBus.Error.UnknownMethod");
  assert.deepEqual(error.body, ["no such method"]);
});

Deno.test("decodeMessage reads big-endian messages like little-endian ones", () => {
  const le = decodeMessage(RICH_BODY_LE, 0, RICH_BODY_LE.length);
  const be = decodeMessage(RICH_BODY_BE, 0, RICH_BODY_BE.length);
  assert.equal(messageLength(RICH_BODY_BE, view(RICH_BODY_BE), 0), RICH_BODY_BE.length);
  assert.deepEqual(be, le);
  assert.equal(be.body[9], "héllo");
  assert.equal(be.body[7], 18000000000000000000n);
});

Deno.test("encodeMessage output decodes to the same message", () => {
  const w = new Writer(8);
  encodeMessage(w, CALL);
  const bytes = w.bytes.slice(0, w.pos);
  assert.equal(messageLength(bytes, view(bytes), 0), bytes.length);
  assert.deepEqual(decodeMessage(bytes, 0, bytes.length), CALL);
  // Same body bytes as GDBus (the header field order differs between implementations).
  assert.deepEqual(bytes.subarray(bytes.length - 4), GET_EXTENTS_CALL.subarray(GET_EXTENTS_CALL.length - 4));
});

Deno.test("encodeMessage packs messages back to back without padding", () => {
  const w = new Writer(8);
  const a: Message = { ...CALL, serial: 1, signature: "y", body: [1] };
  const b: Message = { ...CALL, serial: 2, signature: "(ii)s", body: [[3, 4], "x"] };
  encodeMessage(w, a);
  const split = w.pos;
  assert.notEqual(split % 8, 0, "first message ends off an 8-byte boundary");
  encodeMessage(w, b);
  const bytes = w.bytes.slice(0, w.pos);
  assert.equal(messageLength(bytes, view(bytes), 0), split);
  assert.deepEqual(decodeMessage(bytes, 0, split), a);
  assert.deepEqual(decodeMessage(bytes, split, bytes.length - split), b);
});

Deno.test("encodeMessage leaves the buffer untouched when the body does not fit", () => {
  const w = new Writer(8);
  encodeMessage(w, CALL);
  const before = w.pos;
  assert.throws(() => encodeMessage(w, { ...CALL, signature: "u", body: ["x"] }), TypeError);
  assert.equal(w.pos, before);
});

Deno.test("messageLength rejects a bad endianness marker", () => {
  const bytes = GET_EXTENTS_CALL.slice();
  bytes[0] = 0x21;
  assert.throws(() => messageLength(bytes, view(bytes), 0), MarshalError);
});
