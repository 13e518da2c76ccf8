import assert from "node:assert/strict";
import { DBusConnection } from "./connection.ts";
import { DBusError, DBusErrorName } from "./errors.ts";
import { decodeMessage, encodeMessage, type Message, messageLength, MessageType } from "./message.ts";
import type { Reader } from "./reader.ts";
import { variant } from "./variant.ts";
import { Writer } from "./writer.ts";

/**
 * A minimal D-Bus peer on a unix socket: accepts AUTH EXTERNAL (or rejects it), answers
 * Hello, echoes "Echo" (replying to a batch in reverse order), fails "Fail", never
 * answers "Hang", and sends a signal and a Ping call after answering "Emit".
 */
class FakePeer {
  readonly dir = Deno.makeTempDirSync();
  readonly path = `${this.dir}/bus`;
  readonly listener = Deno.listen({ transport: "unix", path: this.path });
  readonly received: Message[] = [];
  readonly served: Promise<void>;
  #conns: Deno.Conn[] = [];
  #serial = 1000;

  constructor(private readonly mode: "ok" | "reject" = "ok") {
    this.served = this.#serve();
  }

  get address(): string {
    return `unix:path=${this.path},guid=0123456789abcdef`;
  }

  async #serve(): Promise<void> {
    const tasks: Promise<void>[] = [];
    try {
      for await (const conn of this.listener) {
        this.#conns.push(conn);
        tasks.push(this.#session(conn).catch(() => {}));
      }
    } catch {
      // listener closed
    }
    await Promise.all(tasks);
  }

  async #session(conn: Deno.Conn): Promise<void> {
    const ascii = new TextDecoder();
    let buf = new Uint8Array(0);
    let authed = false;
    const chunk = new Uint8Array(65536);
    while (true) {
      const n = await conn.read(chunk);
      if (n === null) return;
      const merged = new Uint8Array(buf.length + n);
      merged.set(buf);
      merged.set(chunk.subarray(0, n), buf.length);
      buf = merged;
      if (!authed) {
        const text = ascii.decode(buf);
        if (text.includes("AUTH") && text.endsWith("\r\n") && !text.includes("BEGIN")) {
          const reply = this.mode === "ok"
            ? "OK 0123456789abcdef0123456789abcdef\r\n"
            : "REJECTED EXTERNAL\r\n";
          await conn.write(new TextEncoder().encode(reply));
          buf = new Uint8Array(0);
          continue;
        }
        const begin = text.indexOf("BEGIN\r\n");
        if (begin < 0) continue;
        buf = buf.slice(begin + 7);
        authed = true;
      }
      const batch: Message[] = [];
      const view = new DataView(buf.buffer);
      let at = 0;
      while (buf.length - at >= 16) {
        const length = messageLength(buf, view, at);
        if (buf.length - at < length) break;
        batch.push(decodeMessage(buf, at, length));
        at += length;
      }
      buf = buf.slice(at);
      await this.#answer(conn, batch);
    }
  }

  async #answer(conn: Deno.Conn, batch: Message[]): Promise<void> {
    const w = new Writer();
    const reply = (to: Message, signature: string, body: unknown[]) =>
      encodeMessage(w, {
        type: MessageType.METHOD_RETURN,
        flags: 1,
        serial: this.#serial++,
        replySerial: to.serial,
        signature,
        body,
      });
    for (const m of [...batch].reverse()) {
      this.received.push(m);
      if (m.type !== MessageType.METHOD_CALL) continue;
      switch (m.member) {
        case "Hello":
          reply(m, "s", [":1.5"]);
          break;
        case "Echo":
          reply(m, m.signature, m.body);
          break;
        case "Fail":
          encodeMessage(w, {
            type: MessageType.ERROR,
            flags: 1,
            serial: this.#serial++,
            replySerial: m.serial,
            errorName: "org.example.Error.Failed",
            signature: "s",
            body: ["it failed"],
          });
          break;
        case "Emit":
          reply(m, "", []);
          encodeMessage(w, {
            type: MessageType.SIGNAL,
            flags: 1,
            serial: this.#serial++,
            path: "/org/example",
            interface: "org.example.Signals",
            member: "Changed",
            signature: "sv",
            body: ["state", variant("b", true)],
          });
          encodeMessage(w, {
            type: MessageType.METHOD_CALL,
            flags: 0,
            serial: this.#serial++,
            path: "/",
            interface: "org.freedesktop.DBus.Peer",
            member: "Ping",
            signature: "",
            body: [],
          });
          break;
      }
    }
    if (w.pos > 0) await conn.write(w.bytes.slice(0, w.pos));
  }

  /** Hangs up every client connection. */
  hangUp(): void {
    for (const conn of this.#conns) {
      try {
        conn.close();
      } catch {
        // already closed
      }
    }
  }

  async close(): Promise<void> {
    this.listener.close();
    this.hangUp();
    await this.served;
    Deno.removeSync(this.dir, { recursive: true });
  }
}

const ECHO = { path: "/org/example", interface: "org.example.Test", member: "Echo" };

Deno.test("DBusConnection authenticates, says Hello and reports its unique name", async () => {
  const peer = new FakePeer();
  const bus = await DBusConnection.connect(peer.address);
  assert.equal(bus.uniqueName, ":1.5");
  await bus.close();
  await peer.close();
});

Deno.test("DBusConnection matches pipelined replies to calls by serial", async () => {
  const peer = new FakePeer();
  const bus = await DBusConnection.connect(peer.address);
  const replies = await Promise.all(
    Array.from({ length: 300 }, (_, i) => bus.call({ ...ECHO, signature: "us", body: [i, `n${i}`] })),
  );
  assert.deepEqual(replies, Array.from({ length: 300 }, (_, i) => [i, `n${i}`]));
  assert.equal(bus.pendingCount, 0);
  // The peer answers each batch it reads in reverse order, so replies came out of order.
  assert.equal(peer.received.filter((m) => m.member === "Echo").length, 300);
  await bus.close();
  await peer.close();
});

Deno.test("DBusConnection reads a reply with the call's own body reader when the signature matches", async () => {
  const peer = new FakePeer();
  const bus = await DBusConnection.connect(peer.address);
  const reply = { signature: "us", read: (r: Reader) => [{ n: r.uint32(), s: r.string() }] };
  const [custom, generic, other] = await Promise.all([
    bus.call({ ...ECHO, signature: "us", body: [7, "seven"] }, { reply }),
    bus.call({ ...ECHO, signature: "us", body: [8, "eight"] }),
    // Another signature than the reader's gets the generic codec.
    bus.call({ ...ECHO, signature: "s", body: ["nine"] }, { reply }),
  ]);
  assert.deepEqual(custom, [{ n: 7, s: "seven" }]);
  assert.deepEqual(generic, [8, "eight"]);
  assert.deepEqual(other, ["nine"]);
  // A reader that fails fails its call only.
  const broken = { signature: "us", read: (r: Reader) => [r.uint32(), r.string(), r.string()] };
  const error = await bus.call({ ...ECHO, signature: "us", body: [1, "x"] }, { reply: broken }).catch((e) =>
    e
  );
  assert.ok(error instanceof DBusError);
  assert.equal(error.errorName, DBusErrorName.BAD_MESSAGE);
  assert.deepEqual(await bus.call({ ...ECHO, signature: "u", body: [3] }), [3]);
  await bus.close();
  await peer.close();
});

Deno.test("DBusConnection turns error replies into DBusError with the error name", async () => {
  const peer = new FakePeer();
  const bus = await DBusConnection.connect(peer.address);
  const error = await bus.call({ ...ECHO, member: "Fail" }).catch((e) => e);
  assert.ok(error instanceof DBusError);
  assert.equal(error.errorName, "org.example.Error.Failed");
  assert.match(error.message, /it failed/);
  await bus.close();
  await peer.close();
});

Deno.test("DBusConnection fails a call that gets no reply in time", async () => {
  const peer = new FakePeer();
  const bus = await DBusConnection.connect(peer.address);
  const started = performance.now();
  const [hung, answered] = await Promise.allSettled([
    bus.call({ ...ECHO, member: "Hang" }, { timeoutMs: 60 }),
    bus.call({ ...ECHO, signature: "s", body: ["ok"] }, { timeoutMs: 60 }),
  ]);
  assert.equal(hung.status, "rejected");
  assert.equal((hung as PromiseRejectedResult).reason.errorName, DBusErrorName.TIMEOUT);
  assert.ok(performance.now() - started >= 55);
  assert.deepEqual((answered as PromiseFulfilledResult<unknown[]>).value, ["ok"]);
  assert.equal(bus.pendingCount, 0);
  await bus.close();
  await peer.close();
});

Deno.test("DBusConnection rejects a call when its signal aborts", async () => {
  const peer = new FakePeer();
  const bus = await DBusConnection.connect(peer.address);
  const controller = new AbortController();
  const call = bus.call({ ...ECHO, member: "Hang" }, { signal: controller.signal });
  controller.abort(new Error("stop"));
  await assert.rejects(call, /stop/);
  assert.equal(bus.pendingCount, 0);
  await bus.close();
  await peer.close();
});

Deno.test("DBusConnection delivers signals and answers Peer.Ping", async () => {
  const peer = new FakePeer();
  const bus = await DBusConnection.connect(peer.address);
  const got = new Promise<Message>((resolve) => bus.onSignal(resolve));
  await bus.call({ ...ECHO, member: "Emit" });
  const signal = await got;
  assert.equal(signal.member, "Changed");
  assert.deepEqual(signal.body, ["state", variant("b", true)]);
  // Our Ping answer reaches the peer.
  for (let i = 0; i < 50 && !peer.received.some((m) => m.type === MessageType.METHOD_RETURN); i++) {
    await new Promise((r) => setTimeout(r, 5));
  }
  assert.ok(peer.received.some((m) => m.type === MessageType.METHOD_RETURN && m.replySerial !== undefined));
  await bus.close();
  await peer.close();
});

Deno.test("DBusConnection fails pending calls with Disconnected on close and on hang-up", async () => {
  const peer = new FakePeer();
  const bus = await DBusConnection.connect(peer.address);
  const pending = assert.rejects(
    bus.call({ ...ECHO, member: "Hang" }),
    (e: DBusError) => e.errorName === DBusErrorName.DISCONNECTED,
  );
  await bus.close();
  await pending;
  await assert.rejects(bus.call(ECHO), (e: DBusError) => e.errorName === DBusErrorName.DISCONNECTED);

  const other = await DBusConnection.connect(peer.address);
  const waiting = assert.rejects(
    other.call({ ...ECHO, member: "Hang" }),
    (e: DBusError) => e.errorName === DBusErrorName.DISCONNECTED,
  );
  peer.hangUp();
  await waiting;
  assert.ok(other.isClosed);
  await other.close();
  await peer.close();
});

Deno.test("DBusConnection rejects bad arguments without sending", async () => {
  const peer = new FakePeer();
  const bus = await DBusConnection.connect(peer.address);
  await assert.rejects(bus.call({ ...ECHO, signature: "u", body: ["x"] }), TypeError);
  assert.deepEqual(await bus.call({ ...ECHO, signature: "u", body: [1] }), [1]);
  await bus.close();
  await peer.close();
});

Deno.test("DBusConnection.connect reports refused auth and missing sockets", async () => {
  const peer = new FakePeer("reject");
  await assert.rejects(
    DBusConnection.connect(peer.address),
    (e: DBusError) => e.errorName === DBusErrorName.AUTH_FAILED,
  );
  await peer.close();
  await assert.rejects(
    DBusConnection.connect("unix:path=/nonexistent/cua-driver-test-socket"),
    (e: DBusError) => e.errorName === DBusErrorName.DISCONNECTED,
  );
});
