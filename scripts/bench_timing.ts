/**
 * Timing goals that used to be wall-clock assertions in tests (STYLE S10: tests wait on
 * conditions; timing belongs in benchmarks). Each goal is the median of several runs
 * against its own budget, on the fake back end (no desktop) unless noted:
 *
 * 1. A click with an agent cursor waits for the glide and not much longer (glide 120 ms).
 * 2. An agent-cursor glide lasts its duration (160 ms).
 * 3. check_for_update gives up soon after its budget on a server that never answers (300 ms).
 * 4. verify_state with two stable samples answers promptly on a satisfied window.
 * 5. (--desktop) The embedded desktop starts (Xvfb, bus, AT-SPI, window manager).
 *
 *     deno run -A scripts/bench_timing.ts [--runs N] [--desktop]
 *
 * Prints a table and writes bench/timing.json.
 *
 * @module
 */
import { AgentCursor, FRAME_MS } from "../src/features/agent_cursor/cursor.ts";
import { findTheme } from "../src/features/agent_cursor/themes.ts";
import { join } from "node:path";
import { checkForUpdate } from "../src/kernel/update_check.ts";
import { EmbeddedDesktop } from "../src/backends/linux/desktop/embedded_desktop.ts";
import { FakeAgentCursor } from "../src/backends/fake/agent_cursor.ts";
import { fakeElement } from "../src/backends/fake/mod.ts";
import verify_state from "../tools/accessibility/verify_state.ts";
import { PID as AX_PID, toolKit, treeOf, WINDOW as AX_WINDOW } from "../tools/accessibility/_test_kit.ts";
import { PID, pointerKit, WINDOW } from "../tools/input/_pointer_test_kit.ts";

const RUNS = Number(Deno.args[Deno.args.indexOf("--runs") + 1]) || 7;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/** One measured goal. */
interface Goal {
  goal: string;
  median_ms: number;
  budget_ms: number;
  runs: number;
}

async function measure(goal: string, budgetMs: number, run: () => Promise<unknown>): Promise<Goal> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await timed(run));
  return { goal, median_ms: Math.round(median(times) * 10) / 10, budget_ms: budgetMs, runs: RUNS };
}

const goals: Goal[] = [];

// 1. Click after a 120 ms glide: budget the glide plus 60 ms.
{
  const kit = pointerKit();
  kit.screenshot("test", "ac");
  const target = { kind: "window", pid: PID, window_id: WINDOW };
  await kit.call("set_agent_cursor_enabled", { session: "ac", enabled: true });
  await kit.call("click", { target, x: 10, y: 10, session: "ac" });
  await kit.call("set_agent_cursor_motion", { session: "ac", glide_duration_ms: 120 });
  let corner = 0;
  goals.push(
    await measure(
      "click waits for a 120 ms agent-cursor glide",
      120 + 60,
      () => kit.call("click", { target, x: (corner++ % 2) ? 10 : 100, y: 100, session: "ac" }),
    ),
  );
  await kit.call("end_session", { session: "ac" });
}

// 2. A 160 ms glide: budget its duration plus four frames.
{
  const surface = new FakeAgentCursor();
  const cursor = new AgentCursor("bench", "b1", surface, findTheme("cua.default")!);
  cursor.setEnabled(true);
  await cursor.moveTo({ x: 100, y: 100 }, "click");
  cursor.motion = { ...cursor.motion, glide_duration_ms: 160 };
  let far = false;
  goals.push(
    await measure(
      "agent-cursor glide of 160 ms",
      160 + 4 * FRAME_MS,
      () => {
        far = !far;
        return cursor.moveTo(far ? { x: 500, y: 300 } : { x: 100, y: 100 }, "drag");
      },
    ),
  );
  cursor.dispose();
}

// 3. check_for_update against a server that never answers, with a 300 ms budget.
{
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  (async () => {
    for await (const conn of listener) held.push(conn);
  })().catch(() => {});
  const dir = await Deno.makeTempDir();
  const url = `http://127.0.0.1:${listener.addr.port}/releases`;
  let n = 0;
  goals.push(
    await measure(
      "check_for_update gives up on a silent server (300 ms budget)",
      300 + 300,
      () => checkForUpdate({ url, cachePath: join(dir, `c${n++}.json`), timeoutMs: 300 }),
    ),
  );
  for (const conn of held) conn.close();
  listener.close();
  await Deno.remove(dir, { recursive: true });
}

// 4. verify_state, two stable samples of a satisfied window.
{
  const kit = toolKit([verify_state]);
  kit.serveTrees(() =>
    treeOf({
      role: "window",
      name: "App",
      children: [{
        role: "label",
        name: "counter=1",
        interfaces: ["text"],
        ref: fakeElement({ text: "counter=1" }),
      }],
    })
  );
  goals.push(
    await measure("verify_state, two stable samples, satisfied", 1000, () =>
      kit.call("verify_state", {
        pid: AX_PID,
        window_id: AX_WINDOW,
        expect: [{ element: { selector: { label_contains: "counter=" }, value_equals: "counter=1" } }],
      })),
  );
}

// 5. The embedded desktop's start-up (real Xvfb, dbus, AT-SPI, openbox).
if (Deno.args.includes("--desktop")) {
  const times: number[] = [];
  for (let i = 0; i < Math.min(RUNS, 3); i++) {
    const desktop = await EmbeddedDesktop.start({});
    times.push(desktop.startupMs);
    await desktop.stop();
  }
  goals.push({
    goal: "embedded desktop start-up",
    median_ms: median(times),
    budget_ms: 5000,
    runs: times.length,
  });
}

console.log("| Goal | Median | Budget | Runs |\n| --- | --- | --- | --- |");
for (const g of goals) {
  const verdict = g.median_ms <= g.budget_ms ? "" : " (over budget)";
  console.log(`| ${g.goal} | ${g.median_ms} ms${verdict} | ${g.budget_ms} ms | ${g.runs} |`);
}
const root = new URL("..", import.meta.url).pathname;
await Deno.writeTextFile(join(root, "bench", "timing.json"), JSON.stringify(goals, null, 2) + "\n");
