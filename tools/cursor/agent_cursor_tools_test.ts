import assert from "node:assert/strict";
import { PID, pointerKit, WINDOW } from "../input/_pointer_test_kit.ts";
import { AGENT_CURSORS } from "../../src/features/agent_cursor/slot.ts";

const target = { kind: "window", pid: PID, window_id: WINDOW };

Deno.test("agent cursor tools: a disabled cursor (the default) is never drawn and never waited for", async () => {
  const kit = pointerKit();
  kit.screenshot("test", "ac");
  await kit.call("set_agent_cursor_motion", { session: "ac", glide_duration_ms: 2000 });
  const result = await kit.call("click", { target, x: 10, y: 10, session: "ac" });
  assert.equal(result.isError, undefined);
  assert.equal(kit.fake.agentCursor.events.length, 0);
  const state = await kit.call("get_agent_cursor_state", { session: "ac" });
  assert.equal(state.structuredContent?.enabled, false);
  assert.equal(state.structuredContent?.position, null, "disabled cursors do not follow actions");
});

Deno.test("agent cursor tools: an enabled cursor glides to a click (waiting at most the glide) and pulses", async () => {
  const kit = pointerKit();
  kit.screenshot("test", "ac");
  const enabled = await kit.call("set_agent_cursor_enabled", { session: "ac", enabled: true });
  assert.deepEqual(enabled.structuredContent, { session: "ac", enabled: true });
  await kit.call("click", { target, x: 10, y: 10, session: "ac" });
  const frames = () => kit.fake.agentCursor.events.filter((e) => e.kind === "draw");
  const first = frames()[0];
  assert.ok(first?.kind === "draw");
  assert.deepEqual(first.frame.point, { x: 120, y: 120 }, "the first move shows the cursor at the target");
  await kit.call("set_agent_cursor_motion", { session: "ac", glide_duration_ms: 120 });
  const started = performance.now();
  let pressedAt = 0;
  kit.fake.onPointer = (_pointer, what) => {
    if (what.startsWith("down")) pressedAt = performance.now();
  };
  await kit.call("click", { target, x: 100, y: 100, session: "ac" });
  // The press waits for the glide (the verdict after it takes as long as the app needs).
  assert.ok(pressedAt - started >= 100, `the press waited for the glide: ${pressedAt - started} ms`);
  const state = (await kit.call("get_agent_cursor_state", { session: "ac" })).structuredContent!;
  // Pixel (100, 100) of the half-size screenshot of the window at (100, 100) is screen (300, 300).
  assert.deepEqual(state.position, { x: 300, y: 300 });
  assert.equal((state.visual_state as { requested_action: string }).requested_action, "click");
  const pulsed = () => frames().some((e) => e.kind === "draw" && e.frame.pulse > 0);
  for (const deadline = Date.now() + 5_000; !pulsed() && Date.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.ok(pulsed(), "the click pulsed");
  const ended = await kit.call("end_session", { session: "ac" });
  assert.equal(ended.isError, undefined);
  assert.equal(kit.fake.agentCursor.events.at(-1)?.kind, "remove", "end_session removed the overlay");
  assert.equal(kit.state.peek(AGENT_CURSORS)?.size ?? 0, 0);
});

Deno.test("agent cursor tools: motion ranges, installed themes and unavailable overlays are refused clearly", async () => {
  const kit = pointerKit();
  const tooLong = await kit.call("set_agent_cursor_motion", { session: "ac", glide_duration_ms: 60_000 });
  assert.equal(tooLong.isError, true);
  assert.equal(tooLong.structuredContent?.code, "invalid_arguments");
  assert.match(String(tooLong.structuredContent?.field), /glide_duration_ms/);
  const kept = await kit.call("set_agent_cursor_motion", { session: "ac", spring: 1, arc_flow: null });
  const motion = kept.structuredContent?.motion as Record<string, number>;
  assert.equal(motion.spring, 1);
  assert.equal(motion.arc_flow, 0);
  assert.equal(Object.keys(motion).length, 9);
  const missing = await kit.call("set_agent_cursor_enabled", { enabled: true });
  assert.equal(missing.structuredContent?.code, "invalid_arguments", "session is required");
  const unknown = await kit.call("set_agent_cursor_theme", { session: "ac", theme_id: "nope" });
  assert.equal(unknown.structuredContent?.code, "invalid_arguments");
  assert.ok((unknown.structuredContent?.installed as string[]).includes("cua.default"));
  const theme = await kit.call("set_agent_cursor_theme", {
    session: "ac",
    theme_id: "cua.mono",
    reduced_motion: "on",
  });
  assert.deepEqual(theme.structuredContent?.theme, {
    id: "cua.mono",
    version: "1.0.0",
    profile: "cua-driver-vector-v1",
    reduced_motion: "on",
    fallback: null,
  });
  kit.fake.agentCursor.unavailable = "no overlay here";
  const refused = await kit.call("set_agent_cursor_enabled", { session: "ac", enabled: true });
  assert.equal(refused.structuredContent?.code, "unsupported_platform");
  assert.match(String(refused.structuredContent?.message), /no overlay here/);
  const off = await kit.call("set_agent_cursor_enabled", { session: "ac", enabled: false });
  assert.equal(off.isError, undefined, "disabling always works");
  const started = await kit.call("start_session", { session: "s2", cursor_theme: { theme_id: "nope" } });
  assert.equal(started.structuredContent?.code, "invalid_arguments", "start_session checks cursor_theme");
});
