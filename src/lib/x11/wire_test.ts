/**
 * The wire client against a scripted X server on a loopback TCP display (`127.0.0.1:N`): the
 * cookie it presents, the screen it reads from a setup reply of two screens, replies taken in
 * order with an event in between, protocol errors, refusals and RandR's monitor list.
 */
import assert from "node:assert/strict";
import { parseDisplayName, XWire, XWireError } from "./wire.ts";
import { parseMonitors, wireDisplays, wirePointer } from "../../backends/linux/x11/wire_screen.ts";

const RANDR = 140;
const COOKIE = Array.from({ length: 16 }, (_, i) => i + 1);

/** A little-endian message builder. */
function bytes(length: number, fill: (view: DataView, out: Uint8Array) => void): Uint8Array {
  const out = new Uint8Array(length);
  fill(new DataView(out.buffer), out);
  return out;
}

/** A setup reply with two screens (the first with one depth of one visual, to be skipped). */
function setupReply(): Uint8Array {
  const vendor = new TextEncoder().encode("fake");
  const screen0 = 40 + 8 + 24, screen1 = 40;
  const body = 32 + 4 + 8 + screen0 + screen1;
  return bytes(8 + body, (v, out) => {
    out[0] = 1;
    v.setUint16(2, 11, true);
    v.setUint16(6, body / 4, true);
    v.setUint16(24, vendor.length, true);
    out[28] = 2; // screens
    out[29] = 1; // formats
    out.set(vendor, 40);
    let at = 40 + 4 + 8;
    v.setUint32(at, 0x111, true);
    v.setUint16(at + 20, 100, true);
    out[at + 39] = 1; // one depth
    v.setUint16(at + 40 + 2, 1, true); // of one visual
    at += screen0;
    v.setUint32(at, 0x777, true);
    v.setUint16(at + 20, 640, true);
    v.setUint16(at + 22, 480, true);
    v.setUint16(at + 24, 170, true);
    v.setUint16(at + 26, 127, true);
  });
}

function reply(
  sequence: number,
  extra: Uint8Array = new Uint8Array(0),
  fill?: (v: DataView, out: Uint8Array) => void,
) {
  return bytes(32 + extra.length, (v, out) => {
    out[0] = 1;
    v.setUint16(2, sequence, true);
    v.setUint32(4, extra.length / 4, true);
    fill?.(v, out);
    out.set(extra, 32);
  });
}

/** GetMonitors: "left" (-800,0 800x600, one output) and "right" (0,0 640x480, primary). */
function monitorsReply(sequence: number): Uint8Array {
  const list = bytes(24 + 4 + 24, (v) => {
    v.setUint32(0, 300, true);
    v.setUint16(6, 1, true);
    v.setInt16(8, -800, true);
    v.setUint16(12, 800, true);
    v.setUint16(14, 600, true);
    v.setUint32(28, 301, true);
    v.setUint8(32, 1);
    v.setUint16(40, 640, true);
    v.setUint16(42, 480, true);
  });
  return reply(sequence, list, (v) => v.setUint32(12, 2, true));
}

function atomReply(sequence: number, name: string): Uint8Array {
  const text = new TextEncoder().encode(name);
  const extra = new Uint8Array((text.length + 3) & ~3);
  extra.set(text);
  return reply(sequence, extra, (v) => v.setUint16(8, text.length, true));
}

/** Reads exactly `length` bytes. */
async function readExactly(conn: Deno.Conn, length: number): Promise<Uint8Array> {
  const out = new Uint8Array(length);
  for (let at = 0; at < length;) {
    const n = await conn.read(out.subarray(at));
    if (n === null) throw new Error("closed");
    at += n;
  }
  return out;
}

interface Server {
  display: number;
  setupRequest: Promise<Uint8Array>;
  close(): Promise<void>;
}

/** A scripted server: answers the setup (or refuses it), then QueryExtension, RandR and GetAtomName. */
function fakeServer(options: { refuse?: boolean; randr?: boolean; randrMinor?: number } = {}): Server {
  let listener: Deno.Listener | null = null;
  let display = 0;
  for (display = 150; display < 250 && !listener; display++) {
    try {
      listener = Deno.listen({ hostname: "127.0.0.1", port: 6000 + display });
    } catch {
      // Taken: the next one.
    }
  }
  display--;
  assert.ok(listener, "a free loopback X port");
  let gotSetup!: (b: Uint8Array) => void;
  const setupRequest = new Promise<Uint8Array>((resolve) => gotSetup = resolve);
  const served = (async () => {
    const conn = await listener!.accept();
    try {
      const head = await readExactly(conn, 12);
      const hv = new DataView(head.buffer);
      const rest = await readExactly(
        conn,
        ((hv.getUint16(6, true) + 3) & ~3) + ((hv.getUint16(8, true) + 3) & ~3),
      );
      const whole = new Uint8Array(12 + rest.length);
      whole.set(head);
      whole.set(rest, 12);
      gotSetup(whole);
      if (options.refuse) {
        await conn.write(bytes(8 + 8, (v, out) => {
          out[1] = 5;
          v.setUint16(6, 2, true);
          out.set(new TextEncoder().encode("nope"), 8);
        }));
        return;
      }
      await conn.write(setupReply());
      for (let sequence = 1;; sequence++) {
        const request = await readExactly(conn, 4).catch(() => null);
        if (!request) return;
        const body = await readExactly(conn, new DataView(request.buffer).getUint16(2, true) * 4 - 4);
        const name = new TextDecoder().decode(
          body.subarray(4, 4 + new DataView(body.buffer).getUint16(0, true)),
        );
        if (request[0] === 98 && name === "RANDR") {
          // An event first: the client skips it.
          await conn.write(bytes(32, (_v, out) => out[0] = 12));
          await conn.write(reply(sequence, undefined, (_v, out) => {
            out[8] = options.randr === false ? 0 : 1;
            out[9] = RANDR;
          }));
        } else if (request[0] === 98) {
          await conn.write(bytes(32, (v, out) => {
            out[1] = 2; // BadValue
            v.setUint16(2, sequence, true);
          }));
        } else if (request[0] === RANDR && request[1] === 0) {
          await conn.write(reply(sequence, undefined, (v) => {
            v.setUint32(8, 1, true);
            v.setUint32(12, options.randrMinor ?? 6, true);
          }));
        } else if (request[0] === RANDR && request[1] === 42 && (options.randrMinor ?? 6) < 5) {
          await conn.write(bytes(32, (v, out) => {
            out[1] = 1; // BadRequest: RandR 1.4 has no GetMonitors
            v.setUint16(2, sequence, true);
          }));
        } else if (request[0] === RANDR && request[1] === 42) {
          assert.equal(new DataView(body.buffer).getUint32(0, true), 0x777, "the requested screen's root");
          await conn.write(monitorsReply(sequence));
        } else if (request[0] === 38) {
          assert.equal(new DataView(body.buffer).getUint32(0, true), 0x777, "the requested screen's root");
          await conn.write(reply(sequence, undefined, (v) => {
            v.setInt16(16, 321, true);
            v.setInt16(18, 654, true);
          }));
        } else if (request[0] === 17) {
          const atom = new DataView(body.buffer).getUint32(0, true);
          await conn.write(atomReply(sequence, atom === 300 ? "left" : "right"));
        }
      }
    } finally {
      conn.close();
    }
  })();
  return {
    display,
    setupRequest,
    async close() {
      listener!.close();
      await served.catch(() => {});
    },
  };
}

/** An authority file holding `cookie` for this host and `display`. */
async function cookieFile(display: number, cookie: number[]): Promise<string> {
  const text = new TextEncoder();
  const fields = [
    text.encode(Deno.hostname()),
    text.encode(String(display)),
    text.encode("MIT-MAGIC-COOKIE-1"),
  ];
  const parts: number[] = [1, 0]; // FamilyLocal, big-endian
  for (const field of [...fields, new Uint8Array(cookie)]) {
    parts.push(field.length >> 8, field.length & 255, ...field);
  }
  const path = await Deno.makeTempFile();
  await Deno.writeFile(path, new Uint8Array(parts));
  return path;
}

Deno.test("parseDisplayName finds the socket of a local display and the host of a TCP one", () => {
  assert.deepEqual(parseDisplayName(":7"), {
    socket: "/tmp/.X11-unix/X7",
    host: null,
    display: 7,
    screen: 0,
  });
  assert.deepEqual(parseDisplayName("unix:7.1"), {
    socket: "/tmp/.X11-unix/X7",
    host: null,
    display: 7,
    screen: 1,
  });
  assert.deepEqual(parseDisplayName("localhost:10.0"), {
    socket: null,
    host: "localhost",
    display: 10,
    screen: 0,
  });
  assert.equal(parseDisplayName("/private/tmp/launch-x/org.xquartz:0"), null);
  assert.equal(parseDisplayName(""), null);
});

Deno.test("XWire presents this host's cookie, reads the requested screen and lists RandR's monitors", async () => {
  const server = fakeServer();
  const xauthority = await cookieFile(server.display, COOKIE);
  try {
    const wire = await XWire.connect(
      `127.0.0.1:${server.display}.1`,
      (k) => k === "XAUTHORITY" ? xauthority : undefined,
    );
    assert.ok(wire);
    const setup = await server.setupRequest;
    const v = new DataView(setup.buffer);
    assert.equal(setup[0], 0x6c, "little-endian");
    assert.equal(v.getUint16(2, true), 11);
    assert.equal(
      new TextDecoder().decode(setup.subarray(12, 12 + v.getUint16(6, true))),
      "MIT-MAGIC-COOKIE-1",
    );
    assert.deepEqual([...setup.subarray(32, 32 + v.getUint16(8, true))], COOKIE);
    assert.deepEqual(wire.screen, { root: 0x777, width: 640, height: 480, widthMm: 170, heightMm: 127 });

    const displays = await wireDisplays(wire);
    assert.deepEqual(displays.map(({ id, name, primary, bounds }) => ({ id, name, primary, bounds })), [
      { id: "1", name: "right", primary: true, bounds: { x: 0, y: 0, width: 640, height: 480 } },
      { id: "0", name: "left", primary: false, bounds: { x: -800, y: 0, width: 800, height: 600 } },
    ]);
    assert.deepEqual(await wirePointer(wire), { x: 321, y: 654, source: "x11" });
    await assert.rejects(
      wire.extension("BROKEN"),
      (error) => error instanceof XWireError && error.errorCode === 2,
    );
    assert.ok(wire.open, "a protocol error leaves the connection open");
    assert.equal(await wire.extension("RANDR"), RANDR, "asked once, then remembered");
    wire.close();
  } finally {
    await server.close();
    await Deno.remove(xauthority);
  }
});

Deno.test("XWire without RandR lists the whole screen", async () => {
  const server = fakeServer({ randr: false });
  try {
    const wire = await XWire.connect(`127.0.0.1:${server.display}.1`, () => undefined);
    assert.ok(wire);
    assert.equal((await server.setupRequest)[6], 0, "no cookie without an authority file");
    assert.deepEqual((await wireDisplays(wire)).map((d) => [d.id, d.name, d.bounds]), [
      ["0", `127.0.0.1:${server.display}.1`, { x: 0, y: 0, width: 640, height: 480 }],
    ]);
    wire.close();
  } finally {
    await server.close();
  }
});

Deno.test("XWire with RandR 1.4 (no GetMonitors) lists the whole screen", async () => {
  const server = fakeServer({ randrMinor: 4 });
  try {
    const wire = await XWire.connect(`127.0.0.1:${server.display}.1`, () => undefined);
    assert.ok(wire);
    assert.deepEqual((await wireDisplays(wire)).map((d) => d.bounds), [{
      x: 0,
      y: 0,
      width: 640,
      height: 480,
    }]);
    assert.ok(wire.open);
    wire.close();
  } finally {
    await server.close();
  }
});

Deno.test("XWire.connect is null when the server refuses, has no such screen, or nothing listens", async () => {
  const refusing = fakeServer({ refuse: true });
  try {
    assert.equal(await XWire.connect(`127.0.0.1:${refusing.display}`, () => undefined), null);
  } finally {
    await refusing.close();
  }
  const server = fakeServer();
  try {
    assert.equal(
      await XWire.connect(`127.0.0.1:${server.display}.2`, () => undefined),
      null,
      "screen 2 of 2",
    );
  } finally {
    await server.close();
  }
  assert.equal(await XWire.connect(`127.0.0.1:${server.display}`, () => undefined), null, "closed port");
});

Deno.test("parseMonitors stops at the reply's end", () => {
  const reply = monitorsReply(1);
  assert.equal(parseMonitors(new DataView(reply.buffer)).length, 2);
  assert.equal(parseMonitors(new DataView(reply.buffer, 0, 32 + 24 + 4)).length, 1);
});
