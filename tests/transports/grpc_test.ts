/**
 * cua.env.v1 over the one-port listener, against a running in-process driver on the
 * test desktop: a standard gRPC client in another process (@grpc/grpc-js under Node,
 * stubs loaded from proto/), every ComputerService and DriverService RPC, gRPC-Web
 * over HTTP/1.1 with a plain fetch, and a kill -9 of a client mid-call.
 */
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import assert from "node:assert/strict";
import { decodePng, encodePng } from "../../src/lib/image/png.ts";
import { fromBase64 } from "../../src/kernel/result.ts";
import type { CallObserver } from "../../src/kernel/call_observer.ts";
import { startRuntime } from "../../src/runtime.ts";
import {
  GetCursorPositionRequestSchema,
  GetCursorPositionResponseSchema,
} from "../../src/transports/network/grpc/gen/cua/env/v1/computer_pb.ts";
import { startNetworkServer } from "../../src/transports/network/server.ts";
import { desktopEnv, e2eRequired, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { startFixture } from "../_helpers/fixture_app.ts";
import { type GrpcAnswer, hasGrpcJs, startGrpcNodeClient } from "../_helpers/grpc_node_client.ts";

const TOKEN = "grpc-test-token-0123456789abcdefghijklmnop"; // 42 characters

function ok(answer: GrpcAnswer, what: string) {
  assert.ok(answer.ok, `${what}: ${answer.code} ${answer.message} ${JSON.stringify(answer.errorInfo)}`);
  return answer.response;
}

function fails(answer: GrpcAnswer, code: number, reason: string, what: string) {
  assert.equal(answer.ok, false, `${what} should fail: ${JSON.stringify(answer.response)?.slice(0, 300)}`);
  assert.equal(answer.code, code, `${what}: ${answer.message}`);
  assert.equal(answer.errorInfo?.reason, reason, `${what}: ${JSON.stringify(answer.errorInfo)}`);
}

const bytes = fromBase64;

Deno.test({
  name: "grpc ComputerService and DriverService serve a grpc-js client in another process",
  // Skipped without Node's @grpc/grpc-js unless e2e tests are required (then the client start fails loudly).
  ignore: ignoreWithoutDesktop() || (!hasGrpcJs() && !e2eRequired()),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const configDir = await Deno.makeTempDir({ prefix: "cua-grpc-config-" });
    Deno.env.set("CUA_DRIVER_CONFIG_DIR", configDir);
    const runtime = await startRuntime({ desktop: "system", permissionMode: "standard" });
    const server = await startNetworkServer({ registry: runtime.registry, token: TOKEN, port: 0 });
    const target = `127.0.0.1:${server.port}`;
    const client = await startGrpcNodeClient(target, TOKEN);
    await using app = await startFixture(desktopEnv(), { x: 60, y: 60 });
    const window = { id: String(app.xid), epoch: "0" };
    try {
      await t.step("ListDisplays and GetCursorPosition", async () => {
        const { displays } = ok(await client.call("ComputerService", "ListDisplays"), "ListDisplays");
        assert.ok(displays.length >= 1);
        assert.equal(displays[0].primary, true);
        assert.ok(
          displays[0].bounds.width > 0 && displays[0].nativeSize.width > 0,
          JSON.stringify(displays[0]),
        );
        const cursor = ok(await client.call("ComputerService", "GetCursorPosition"), "GetCursorPosition");
        assert.equal(typeof cursor.position.x, "number");
        assert.equal(cursor.displayId, displays[0].id);
      });

      await t.step("Screenshot of the display decodes to the stated size", async () => {
        const shot = ok(
          await client.call("ComputerService", "Screenshot", { displayId: "primary" }),
          "Screenshot",
        );
        const image = decodePng(bytes(shot.image));
        assert.equal(shot.format, "IMAGE_FORMAT_PNG");
        assert.deepEqual([image.width, image.height], [shot.imageSize.width, shot.imageSize.height]);
        assert.deepEqual(shot.nativeSize, shot.imageSize);
        assert.equal(shot.scale, 1);
        assert.ok(shot.screenshotId !== "" && shot.capturedAt.seconds !== "0");
        const small = ok(
          await client.call("ComputerService", "Screenshot", {
            format: "IMAGE_FORMAT_JPEG",
            maxDimension: 640,
          }),
          "JPEG screenshot",
        );
        assert.equal(small.imageSize.width, 640);
        assert.deepEqual([...bytes(small.image).subarray(0, 2)], [0xff, 0xd8]);
        assert.ok(Math.abs(small.scale - 640 / small.logicalBounds.width) < 1e-9);
        fails(
          await client.call("ComputerService", "Screenshot", { format: "IMAGE_FORMAT_WEBP" }),
          12,
          "ERROR_REASON_FEATURE_UNSUPPORTED",
          "WebP",
        );
      });

      await t.step("Pointer click in SCREENSHOT space lands on btn-increment", async () => {
        const shot = ok(
          await client.call("ComputerService", "Screenshot", { window, maxDimension: 300 }),
          "window screenshot",
        );
        assert.ok(shot.scale < 1, `a downscaled window screenshot (scale ${shot.scale})`);
        const png = decodePng(bytes(shot.image));
        assert.deepEqual([png.width, png.height], [shot.imageSize.width, shot.imageSize.height]);
        const button = app.widgets["btn-increment"];
        const position = {
          x: (button.x + button.width / 2) * shot.scale,
          y: (button.y + button.height / 2) * shot.scale,
        };
        const answer = await client.call("ComputerService", "Pointer", {
          target: { window, space: "COORDINATE_SPACE_SCREENSHOT", screenshotId: shot.screenshotId },
          click: { position },
        });
        const { report, cursorPosition } = ok(answer, "Pointer click");
        await app.waitFor((e) => e.event === "click" && e.counter === 1);
        assert.ok(["DELIVERY_BACKGROUND", "DELIVERY_FOREGROUND"].includes(report.delivery), report.delivery);
        if (report.delivery === "DELIVERY_BACKGROUND") {
          assert.equal(report.pointerMoved, false, "a background click leaves the user's pointer");
          assert.equal(report.focusChanged, false, "a background click leaves the focus");
        }
        assert.equal(typeof cursorPosition.x, "number");
      });

      await t.step("call observers and the recorder see a gRPC Screenshot and a gRPC click", async () => {
        const seen: { tool: string; transport: string; session: string; nested: boolean }[] = [];
        const observer: CallObserver = {
          before(call) {
            seen.push({
              tool: call.tool.name,
              transport: call.ctx.transport,
              session: call.ctx.session.id,
              nested: call.nested,
            });
            return null;
          },
        };
        const dir = await Deno.makeTempDir({ prefix: "cua-grpc-recording-" });
        const lease = { lease: "grpc-test-recorder", transport: "cli" as const };
        const started = await runtime.registry.call("start_recording", { output_dir: dir }, lease);
        assert.equal(started.isError, undefined, JSON.stringify(started.structuredContent));
        runtime.registry.state.callObservers.add(observer);
        try {
          const before = (await app.readJournal()).at(-1)!.counter as number;
          const shot = ok(
            await client.call("ComputerService", "Screenshot", { window }),
            "window screenshot",
          );
          const button = app.widgets["btn-increment"];
          ok(
            await client.call("ComputerService", "Pointer", {
              target: { window, space: "COORDINATE_SPACE_SCREENSHOT", screenshotId: shot.screenshotId },
              click: { position: { x: button.x + button.width / 2, y: button.y + button.height / 2 } },
            }),
            "Pointer click",
          );
          await app.waitFor((e) => e.event === "click" && e.counter === before + 1);
        } finally {
          runtime.registry.state.callObservers.delete(observer);
          await runtime.registry.call("stop_recording", {}, lease);
        }
        const grpc = seen.filter((call) => call.transport === "grpc");
        const screenshot = grpc.find((call) => call.tool === "computer_screenshot");
        const click = grpc.find((call) => call.tool === "click");
        assert.ok(screenshot && click, JSON.stringify(seen));
        assert.equal(screenshot.session, click.session, "one ComputerService session for the connection");
        assert.ok(!screenshot.nested && !click.nested);
        // The recorder made the click a turn (read-only calls such as the screenshot are not turns).
        const turns = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.startsWith("turn-"))
          .sort();
        const actions = turns.map((turn) => JSON.parse(Deno.readTextFileSync(`${dir}/${turn}/action.json`)));
        assert.deepEqual(actions.map((a) => a.tool), ["click"], JSON.stringify(actions));
        assert.equal(actions[0].result_error, false, actions[0].result_summary);
        await Deno.remove(dir, { recursive: true });
      });

      await t.step(
        "Pointer move of the user's pointer in SCREEN and NORMALIZED space, measured",
        async () => {
          fails(
            await client.call("ComputerService", "Pointer", {
              target: { delivery: "DELIVERY_BACKGROUND" },
              click: { position: { x: 1, y: 1 } },
            }),
            9,
            "ERROR_REASON_WOULD_REQUIRE_ACTIVATION",
            "background delivery without a window",
          );
          if (!runtime.registry.get("move_cursor")) return; // The move_cursor tool is not in this build.
          const moved = ok(
            await client.call("ComputerService", "Pointer", { move: { position: { x: 7, y: 9 } } }),
            "move",
          );
          assert.deepEqual(moved.cursorPosition, { x: 7, y: 9 });
          assert.equal(moved.report.delivery, "DELIVERY_FOREGROUND");
          const center = ok(
            await client.call("ComputerService", "Pointer", {
              target: { space: "COORDINATE_SPACE_NORMALIZED" },
              move: { position: { x: 0.5, y: 0.5 } },
            }),
            "normalized move",
          );
          const { displays } = ok(await client.call("ComputerService", "ListDisplays"), "ListDisplays");
          const bounds = displays[0].bounds;
          assert.deepEqual(center.cursorPosition, {
            x: bounds.x + bounds.width / 2,
            y: bounds.y + bounds.height / 2,
          });
          assert.equal(center.report.pointerMoved, true, "the move is measured");
        },
      );

      await t.step("Keyboard types into the focused entry", async () => {
        const entry = app.widgets["txt-input"];
        const click = await client.call("ComputerService", "Pointer", {
          target: { window, space: "COORDINATE_SPACE_WINDOW" },
          click: { position: { x: entry.x + entry.width / 2, y: entry.y + entry.height / 2 } },
        });
        ok(click, "click the entry");
        await app.waitFor((e) => e.focus === "txt-input");
        // Keystrokes need the X11 keyboard; a build without it refuses honestly (FEATURE_UNSUPPORTED).
        const typed = await client.call("ComputerService", "Keyboard", {
          target: { window },
          type: { text: "hi" },
        });
        const keyboardWired = typed.ok;
        const insert = (text: string) =>
          client.call("ComputerService", "Keyboard", {
            target: { window },
            type: { text, mode: "TEXT_ENTRY_MODE_INSERT" },
          });
        if (!keyboardWired) {
          fails(typed, 12, "ERROR_REASON_FEATURE_UNSUPPORTED", "keystrokes without the X11 keyboard");
          ok(await insert("hi"), "Keyboard type (insert)");
        }
        await app.waitFor((e) => e.mirror === "hi");
        const inserted = ok(await insert("!"), "Keyboard type (insert)");
        await app.waitFor((e) => e.mirror === "hi!");
        assert.equal(inserted.report.delivery, "DELIVERY_BACKGROUND");
        assert.equal(inserted.report.focusChanged, false);
        const press = await client.call("ComputerService", "Keyboard", {
          target: { window },
          press: { key: { named: "KEY_BACKSPACE" } },
        });
        if (keyboardWired) {
          ok(press, "Keyboard press");
          await app.waitFor((e) => e.mirror === "hi");
        } else {
          fails(press, 12, "ERROR_REASON_FEATURE_UNSUPPORTED", "a key press without the X11 keyboard");
        }
        fails(
          await client.call("ComputerService", "Keyboard", {
            target: { window },
            down: { key: { named: "KEY_A" } },
          }),
          12,
          "ERROR_REASON_FEATURE_UNSUPPORTED",
          "key down",
        );
      });

      await t.step("SetClipboard and GetClipboard round-trip text and a PNG", async () => {
        const set = ok(
          await client.call("ComputerService", "SetClipboard", { content: { text: "grpc clipboard ✓" } }),
          "SetClipboard",
        );
        const got = ok(await client.call("ComputerService", "GetClipboard"), "GetClipboard");
        assert.equal(got.content.text, "grpc clipboard ✓");
        assert.equal(got.generation, set.generation);
        const png = await encodePng({ width: 3, height: 2, data: new Uint8Array(24).fill(200) });
        const setImage = ok(
          await client.call("ComputerService", "SetClipboard", {
            content: { imagePng: btoa(String.fromCharCode(...png)) },
          }),
          "SetClipboard image",
        );
        assert.ok(BigInt(setImage.generation) > BigInt(set.generation));
        const image = ok(await client.call("ComputerService", "GetClipboard"), "GetClipboard image");
        const decoded = decodePng(bytes(image.content.imagePng));
        assert.deepEqual([decoded.width, decoded.height], [3, 2]);
      });

      await t.step("a screenshot_id is stale after the window is resized", async () => {
        const shot = ok(await client.call("ComputerService", "Screenshot", { window }), "window screenshot");
        const frame = shot.logicalBounds;
        const resized = ok(
          await client.call("DriverService", "CallTool", {
            name: "set_window_frame",
            argumentsJson: JSON.stringify({
              pid: app.pid,
              window_id: app.xid,
              x: Math.round(frame.x),
              y: Math.round(frame.y),
              width: Math.round(frame.width) + 40,
              height: Math.round(frame.height) + 30,
            }),
          }),
          "set_window_frame",
        );
        assert.equal(resized.isError, false, resized.content?.[0]?.text);
        fails(
          await client.call("ComputerService", "Pointer", {
            target: { window, space: "COORDINATE_SPACE_SCREENSHOT", screenshotId: shot.screenshotId },
            click: { position: { x: 5, y: 5 } },
          }),
          9,
          "ERROR_REASON_STALE_GEOMETRY",
          "click with a stale screenshot_id",
        );
      });

      await t.step("ListTools and CallTool match MCP tools/list and tools/call", async () => {
        const listed = ok(await client.call("DriverService", "ListTools"), "ListTools");
        const mcp = await mcpPost(server.url, { jsonrpc: "2.0", id: 1, method: "tools/list" });
        const mcpTools = mcp.result.tools as { name: string; inputSchema: unknown; outputSchema?: unknown }[];
        assert.deepEqual(
          listed.tools.map((tool: { name: string }) => tool.name),
          mcpTools.map((tool) => tool.name),
        );
        for (const [i, tool] of listed.tools.entries()) {
          assert.deepEqual(JSON.parse(tool.inputSchemaJson), mcpTools[i].inputSchema, tool.name);
          assert.deepEqual(
            tool.outputSchemaJson ? JSON.parse(tool.outputSchemaJson) : undefined,
            mcpTools[i].outputSchema,
          );
        }
        assert.notEqual(listed.contractVersion, "");
        const called = ok(
          await client.call("DriverService", "CallTool", { name: "get_screen_size" }),
          "CallTool",
        );
        const mcpCalled = await mcpPost(server.url, {
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "get_screen_size", arguments: {} },
        });
        assert.deepEqual(JSON.parse(called.structuredJson), mcpCalled.result.structuredContent);
        assert.equal(called.isError, false);
        fails(
          await client.call("DriverService", "CallTool", { name: "no_such_tool" }),
          5,
          "ERROR_REASON_UNSPECIFIED",
          "unknown",
        );
        const bad = await client.call("DriverService", "CallTool", {
          name: "get_screen_size",
          argumentsJson: "{",
        });
        assert.equal(bad.code, 3, "bad JSON is INVALID_ARGUMENT");
        const invalidArgs = ok(
          await client.call("DriverService", "CallTool", {
            name: "get_screen_size",
            argumentsJson: '{"x":1}',
          }),
          "schema-invalid arguments",
        );
        assert.equal(invalidArgs.isError, true, "schema-invalid arguments are a tool error, as over MCP");
      });

      await t.step("a missing or wrong token is UNAUTHENTICATED", async () => {
        for (const token of ["", "x".repeat(42)]) {
          fails(
            await client.call("ComputerService", "ListDisplays", {}, { token }),
            16,
            "ERROR_REASON_UNAUTHENTICATED",
            `token "${token.slice(0, 4)}"`,
          );
        }
      });

      await t.step("gRPC-Web over HTTP/1.1 with fetch", async () => {
        const message = toBinary(GetCursorPositionRequestSchema, {
          $typeName: "cua.env.v1.GetCursorPositionRequest",
        });
        const framed = new Uint8Array(5 + message.length);
        new DataView(framed.buffer).setUint32(1, message.length);
        framed.set(message, 5);
        const call = (token: string) =>
          fetch(`${server.url}/cua.env.v1.ComputerService/GetCursorPosition`, {
            method: "POST",
            headers: {
              "Content-Type": "application/grpc-web+proto",
              "X-Grpc-Web": "1",
              Authorization: `Bearer ${token}`,
            },
            body: framed,
          });
        const response = await call(TOKEN);
        assert.equal(response.status, 200);
        assert.equal(response.headers.get("content-type"), "application/grpc-web+proto");
        const frames = parseFrames(new Uint8Array(await response.arrayBuffer()));
        const data = frames.find((f) => f.flags === 0)!;
        const trailer = new TextDecoder().decode(frames.find((f) => f.flags === 0x80)!.payload);
        assert.match(trailer, /grpc-status:\s*0/);
        const decoded = fromBinary(GetCursorPositionResponseSchema, data.payload);
        assert.equal(typeof decoded.position?.x, "number");
        const denied = await call("y".repeat(40));
        const deniedText = new TextDecoder().decode(new Uint8Array(await denied.arrayBuffer()));
        assert.match((denied.headers.get("grpc-status") ?? "") + deniedText, /16/);
      });

      await t.step("a client killed with SIGKILL mid-call does not take the server down", async () => {
        const victim = await startGrpcNodeClient(target, TOKEN);
        for (let i = 0; i < 8; i++) victim.send("ComputerService", "Screenshot", { displayId: "primary" });
        await new Promise((resolve) => setTimeout(resolve, 30));
        victim.kill("SIGKILL");
        await victim.close();
        ok(await client.call("ComputerService", "ListDisplays"), "the first client still works");
        await using fresh = await startGrpcNodeClient(target, TOKEN);
        ok(await fresh.call("DriverService", "ListTools"), "a new client works");
      });
    } finally {
      await client.close();
      await server.close();
      await runtime.close();
      await Deno.remove(configDir, { recursive: true }).catch(() => {});
    }
  },
});

// deno-lint-ignore no-explicit-any
async function mcpPost(url: string, body: unknown): Promise<any> {
  const response = await fetch(`${url}/mcp`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 200);
  return await response.json();
}

function parseFrames(body: Uint8Array): { flags: number; payload: Uint8Array }[] {
  const frames = [];
  for (let at = 0; at + 5 <= body.length;) {
    const length = new DataView(body.buffer, body.byteOffset + at + 1, 4).getUint32(0);
    frames.push({ flags: body[at], payload: body.subarray(at + 5, at + 5 + length) });
    at += 5 + length;
  }
  return frames;
}
