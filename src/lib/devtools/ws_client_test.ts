import assert from "node:assert/strict";
import { WsClient, WsError } from "./ws_client.ts";

/** A Deno.serve WebSocket echo server on an ephemeral loopback port. */
function echoServer() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const { socket, response } = Deno.upgradeWebSocket(request);
    socket.onmessage = (event) => socket.send(event.data);
    return response;
  });
  return { url: `ws://127.0.0.1:${server.addr.port}/devtools/browser/x`, server };
}

function nextMessage(client: WsClient): Promise<string> {
  return new Promise((resolve) => (client.onmessage = resolve));
}

Deno.test("WsClient echoes text messages of every length class through a real server", async () => {
  const { url, server } = echoServer();
  const client = await WsClient.connect(url);
  try {
    // 7-bit, 16-bit and 64-bit payload lengths, and a multi-byte character across read chunks.
    for (const size of [0, 1, 125, 126, 1200, 3300, 65535, 65536, 300_000, 5_000_000]) {
      const text = "é".repeat(size >> 1) + "x".repeat(size & 1);
      const reply = nextMessage(client);
      client.send(text);
      assert.equal(await reply, text, `size ${size}`);
    }
  } finally {
    await client.close();
    await server.shutdown();
  }
  assert.equal(client.closed, true);
});

Deno.test("WsClient keeps message order when many are sent at once", async () => {
  const { url, server } = echoServer();
  const client = await WsClient.connect(url);
  const got: string[] = [];
  const all = new Promise<void>((resolve) => {
    client.onmessage = (text) => {
      got.push(text);
      if (got.length === 200) resolve();
    };
  });
  try {
    for (let i = 0; i < 200; i++) client.send(`${i}:${"y".repeat(i * 37)}`);
    await all;
    assert.deepEqual(got.map((text) => Number(text.split(":")[0])), [...Array(200).keys()]);
  } finally {
    await client.close();
    await server.shutdown();
  }
});

/** A raw TCP server that upgrades, then runs `script` on the socket. */
function rawServer(script: (conn: Deno.Conn) => Promise<void>) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const served = (async () => {
    const conn = await listener.accept();
    const buffer = new Uint8Array(4096);
    const n = (await conn.read(buffer))!;
    const head = new TextDecoder().decode(buffer.subarray(0, n));
    const key = /Sec-WebSocket-Key: (\S+)/i.exec(head)![1];
    const digest = await crypto.subtle.digest(
      "SHA-1",
      new TextEncoder().encode(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"),
    );
    const accept = btoa(String.fromCharCode(...new Uint8Array(digest)));
    await conn.write(
      new TextEncoder().encode(
        `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Accept: ${accept}\r\n\r\n`,
      ),
    );
    try {
      await script(conn);
    } finally {
      conn.close();
    }
  })();
  const port = (listener.addr as Deno.NetAddr).port;
  return { url: `ws://127.0.0.1:${port}/`, served, close: () => listener.close() };
}

/** Reads one masked client frame and unmasks it. */
async function readClientFrame(conn: Deno.Conn): Promise<{ opcode: number; payload: Uint8Array }> {
  const head = new Uint8Array(2);
  await readFull(conn, head);
  let length = head[1] & 0x7f;
  if (length === 126) {
    const ext = new Uint8Array(2);
    await readFull(conn, ext);
    length = (ext[0] << 8) | ext[1];
  }
  assert.ok(head[1] & 0x80, "client frames are masked");
  const mask = new Uint8Array(4);
  await readFull(conn, mask);
  const payload = new Uint8Array(length);
  await readFull(conn, payload);
  for (let i = 0; i < length; i++) payload[i] ^= mask[i & 3];
  return { opcode: head[0] & 0x0f, payload };
}

async function readFull(conn: Deno.Conn, into: Uint8Array): Promise<void> {
  for (let at = 0; at < into.length;) {
    const n = await conn.read(into.subarray(at));
    if (n === null) throw new Error("closed");
    at += n;
  }
}

Deno.test("WsClient joins fragmented messages and answers a ping with its payload", async () => {
  const enc = new TextEncoder();
  let pong: Uint8Array | null = null;
  const server = await rawServer(async (conn) => {
    // "Hello, " + "wor" + "ld" in three frames with a ping between the fragments.
    await conn.write(new Uint8Array([0x01, 7, ...enc.encode("Hello, ")]));
    await conn.write(new Uint8Array([0x89, 4, ...enc.encode("ping")]));
    await conn.write(new Uint8Array([0x00, 3, ...enc.encode("wor")]));
    await conn.write(new Uint8Array([0x80, 2, ...enc.encode("ld")]));
    const frame = await readClientFrame(conn);
    if (frame.opcode === 0xa) pong = frame.payload;
    await conn.write(new Uint8Array([0x88, 2, 0x03, 0xe8])); // close
  });
  const client = await WsClient.connect(server.url);
  const closed = new Promise<void>((resolve) => (client.onclose = resolve));
  assert.equal(await nextMessage(client), "Hello, world");
  await closed;
  await server.served;
  server.close();
  assert.equal(new TextDecoder().decode(pong!), "ping");
  assert.equal(client.closed, true);
});

Deno.test("WsClient refuses a server that does not upgrade, and non-ws URLs", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("no"));
  try {
    await assert.rejects(WsClient.connect(`ws://127.0.0.1:${server.addr.port}/`), WsError);
    await assert.rejects(WsClient.connect("wss://127.0.0.1:1/"), /Only ws:\/\//);
  } finally {
    await server.shutdown();
  }
});

Deno.test("WsClient gives up on a server that accepts but never answers the upgrade", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const accepted = listener.accept();
  try {
    await assert.rejects(
      WsClient.connect(`ws://127.0.0.1:${(listener.addr as Deno.NetAddr).port}/`, 200),
      WsError,
    );
  } finally {
    (await accepted).close();
    listener.close();
  }
});
