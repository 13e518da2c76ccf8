import assert from "node:assert/strict";
import { join } from "node:path";
import { DriverError } from "../../ports/errors.ts";
import { buildReport, treeChange } from "./report.ts";

Deno.test("treeChange compares tree lines without their shifting element indices", () => {
  const before = '[1] button "Increment"\n[2] label "Clicks: 0"\n[3] entry ""';
  const after = '[1] button "Increment"\n[2] dialog "Saved"\n[3] label "Clicks: 1"\n[4] entry ""';
  const change = treeChange(before, after);
  assert.deepEqual(change.added, ['dialog "Saved"', 'label "Clicks: 1"']);
  assert.deepEqual(change.removed, ['label "Clicks: 0"']);
  assert.equal(change.addedCount, 2);
  assert.equal(change.removedCount, 1);
});

Deno.test("treeChange counts repeated lines: one of two identical rows removed is one removal", () => {
  const change = treeChange('[1] item "a"\n[2] item "a"', '[1] item "a"');
  assert.deepEqual(change.removed, ['item "a"']);
  assert.deepEqual(change.added, []);
});

Deno.test("buildReport refuses a missing folder and one without turns", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await assert.rejects(
      () => buildReport(join(dir, "absent")),
      (e: unknown) => e instanceof DriverError && e.code === "recording_not_found",
    );
    await Deno.mkdir(join(dir, ".turn-00001.partial"));
    await assert.rejects(
      () => buildReport(dir),
      (e: unknown) => e instanceof DriverError && e.code === "recording_invalid",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("buildReport renders one entry per turn, escapes what the turn holds and marks failures", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const turn = async (n: number, action: Record<string, unknown>) => {
      const folder = join(dir, `turn-0000${n}`);
      await Deno.mkdir(folder);
      await Deno.writeTextFile(join(folder, "action.json"), JSON.stringify(action));
    };
    await turn(1, {
      tool: "click",
      arguments: { x: 1 },
      result_summary: "clicked",
      result_effect: "confirmed",
    });
    await turn(2, { tool: "type_text", arguments: { text: "<script>x</script>" }, result_error: true });
    await turn(3, { tool: "scroll", arguments: {}, result_summary: "scrolled (unverifiable)" });
    const report = await buildReport(dir);
    assert.equal(report.turns.length, 3);
    assert.equal((report.html.match(/<article /g) ?? []).length, 3);
    assert.doesNotMatch(report.html, /<script>x<\/script>/, "turn content is escaped");
    assert.match(report.html, /data-turn="2" data-tool="type_text" data-standout="failed"/);
    assert.match(report.html, /data-turn="3" data-tool="scroll" data-standout="unconfirmed"/);
    assert.match(report.html, /Content-Security-Policy" content="default-src 'none'/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
