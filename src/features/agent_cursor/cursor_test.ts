import assert from "node:assert/strict";
import { FakeAgentCursor } from "../../backends/fake/agent_cursor.ts";
import { AgentCursor, FRAME_MS, PRESS_MS } from "./cursor.ts";
import { findTheme } from "./themes.ts";

function cursor() {
  const surface = new FakeAgentCursor();
  const c = new AgentCursor("s1", "ac1", surface, findTheme("cua.default")!);
  return { surface, c };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("AgentCursor disabled draws nothing and answers moves at once", async () => {
  const { surface, c } = cursor();
  // At once: the move resolves before any timer could fire (no frame, no wait).
  let timerFired = false;
  const timer = setTimeout(() => timerFired = true, 0);
  await c.moveTo({ x: 10, y: 20 }, "click");
  assert.equal(timerFired, false, "the move waited on a timer");
  clearTimeout(timer);
  c.press();
  assert.equal(surface.events.length, 0);
  assert.deepEqual(c.position, { x: 10, y: 20 }, "the logical position is still kept");
  assert.equal(c.visual.requested_action, "click");
  c.dispose();
});

Deno.test("AgentCursor appears on its first move, then glides frame by frame to the next", async () => {
  const { surface, c } = cursor();
  c.setEnabled(true);
  assert.equal(surface.events.length, 0, "nothing to draw before a position is known");
  await c.moveTo({ x: 100, y: 100 }, "click");
  assert.deepEqual(surface.frames("s1").map((f) => f.point), [{ x: 100, y: 100 }], "first move jumps");
  assert.equal(surface.frames("s1")[0].label, "ac1");
  c.motion = { ...c.motion, glide_duration_ms: 160 };
  const started = performance.now();
  const glide = c.moveTo({ x: 500, y: 300 }, "drag", ["shift"]);
  assert.equal(c.visual.phase, "gliding");
  await glide;
  const took = performance.now() - started;
  // Not much longer than its duration is a timing goal: scripts/bench_timing.ts.
  assert.ok(took >= 150, `the glide takes its duration: ${took}`);
  const points = surface.frames("s1").map((f) => f.point);
  assert.ok(points.length >= 6, `about 60 Hz: ${points.length} frames`);
  assert.deepEqual(points.at(-1), { x: 500, y: 300 });
  assert.equal(c.visual.phase, "idle");
  assert.deepEqual(c.visual.modifiers, ["shift"]);
  assert.equal(c.visual.frame, points.length);
  c.dispose();
  assert.equal(surface.events.at(-1)?.kind, "remove");
});

Deno.test("AgentCursor counts preempted glides and pulses, and pulses on a press", async () => {
  const { surface, c } = cursor();
  c.setEnabled(true);
  await c.moveTo({ x: 0, y: 0 }, "click");
  c.motion = { ...c.motion, glide_duration_ms: 500, dwell_after_click_ms: 40 };
  const first = c.moveTo({ x: 400, y: 0 }, "click");
  await sleep(40);
  const second = c.moveTo({ x: 0, y: 400 }, "click");
  await first;
  assert.equal(c.visual.preempted_count, 1);
  c.motion = { ...c.motion, glide_duration_ms: 0 };
  await c.moveTo({ x: 50, y: 50 }, "click");
  await second;
  assert.equal(c.visual.preempted_count, 2);
  c.press();
  assert.equal(c.visual.phase, "pressing");
  await sleep(PRESS_MS + 40 + 3 * FRAME_MS);
  const pulses = surface.frames("s1").map((f) => f.pulse).filter((p) => p > 0);
  assert.ok(pulses.length >= 3 && Math.max(...pulses) === 1, `pulse frames: ${pulses}`);
  assert.equal(surface.frames("s1").at(-1)!.pulse, 0, "and the pulse ends");
  assert.equal(c.visual.phase, "idle");
  c.dispose();
});

Deno.test("AgentCursor with reduced motion jumps; disabling removes the overlay; idle hides it", async () => {
  const { surface, c } = cursor();
  c.setEnabled(true);
  c.setTheme(findTheme("cua.mono")!, "on");
  await c.moveTo({ x: 0, y: 0 }, "click");
  const before = surface.frames("s1").length;
  await c.moveTo({ x: 300, y: 300 }, "click");
  // No glide: one frame, straight at the target (a glide draws a frame per tick on the way).
  assert.deepEqual(surface.frames("s1").slice(before).map((f) => f.point), [{ x: 300, y: 300 }]);
  assert.equal(surface.frames("s1").at(-1)!.style.fill, "#111111");
  c.setEnabled(false);
  assert.equal(surface.events.at(-1)?.kind, "remove");
  assert.equal(c.visible, false);
  c.motion = { ...c.motion, idle_hide_ms: 30 };
  c.setEnabled(true);
  assert.deepEqual(surface.shown.get("s1")?.point, { x: 300, y: 300 }, "re-enabled where it last went");
  await sleep(60);
  assert.equal(surface.events.at(-1)?.kind, "hide");
  assert.equal(c.visual.phase, "hidden");
  c.dispose();
});
