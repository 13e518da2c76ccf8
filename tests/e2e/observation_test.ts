/**
 * Lean observations on the GTK3 fixture: the outline is in the text only, a closed menu
 * is one folded line naming its group, every element keeps its index whether folded or
 * not (expand "all", expand by group and query list them with the same indices), and the
 * folded menu still acts by its path (judged by the fixture's journal).
 *
 * @module
 */
import assert from "node:assert/strict";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { startFixture } from "../_helpers/fixture_app.ts";
import { startTestDriver, type Structured } from "../_helpers/in_process_driver.ts";

const ignore = ignoreWithoutDesktop();

/** `index:label` of each element row. */
function rows(state: Structured): string[] {
  return (state.elements as Structured[]).map((e) => `${e.element_token.split(":")[1]}:${e.label}`);
}

Deno.test({
  name: "get_window_state folds a closed menu into one line, and every element stays reachable by token",
  ignore,
  async fn() {
    await using driver = await startTestDriver();
    await using app = await startFixture(desktopEnv(), { title: "Observation", x: 30, y: 30 });
    const args = { pid: app.pid, window_id: app.xid, include_screenshot: false };
    const call = async (extra: Record<string, unknown> = {}) => {
      const result = await driver.call("get_window_state", { ...args, ...extra });
      assert.equal(result.isError, undefined, JSON.stringify(result.structuredContent));
      const text = result.content.find((p) => p.type === "text");
      return { state: result.structuredContent as Structured, text: text?.type === "text" ? text.text : "" };
    };

    const folded = await call();
    assert.equal(folded.state.tree_markdown, undefined, "the outline is not repeated in structuredContent");
    assert.match(folded.text, /\[\d+\] push button "btn-increment"/);
    const summaries = [
      ...folded.text.matchAll(
        /- \(not on screen: \d+ nodes, (?:no elements|\d+ elements? \[(\d+)(?:-(\d+))?\])([^;]*); expand "(h\d+)"\)/g,
      ),
    ];
    const menu = summaries.find((m) => m[3].includes('"Arrange"'));
    assert.ok(menu, `the closed Window menu is one folded line:\n${folded.text}`);
    assert.ok(!/menu item = "Right"/.test(folded.text), "its items are not listed");
    const foldedIndices = new Set<number>();
    for (const [, first, last] of summaries) {
      if (first === undefined) continue;
      for (let i = Number(first); i <= Number(last ?? first); i++) foldedIndices.add(i);
    }

    // Every element is shown or folded; expanding everything lists them all with the same indices.
    const all = await call({ expand: "all" });
    assert.equal(rows(all.state).length, all.state.element_count, "expand all shows every element");
    assert.equal(all.state.element_count, folded.state.element_count);
    const shownIndices = new Set(rows(folded.state).map((r) => Number(r.split(":")[0])));
    for (const row of rows(all.state)) {
      const index = Number(row.split(":")[0]);
      assert.ok(shownIndices.has(index) || foldedIndices.has(index), `${row} is shown or in a folded range`);
    }
    for (const row of rows(folded.state)) assert.ok(rows(all.state).includes(row), `${row}: same index`);

    const one = await call({ expand: [menu[4]] });
    assert.match(one.text, /menu item = "Right"/, "expand by group lists its items");
    assert.ok(!one.text.includes(`expand "${menu[4]}"`), "the expanded group is no longer a summary line");

    const queried = await call({ query: "right" });
    assert.match(queried.text, /menu item = "Right"/, "query reaches into folded lines");
    assert.ok(queried.text.split("\n").length < all.text.split("\n").length / 3, "and keeps little else");
    assert.ok(
      rows(queried.state).length < rows(all.state).length / 3,
      "the structured rows follow the query",
    );

    // The folded menu stays actionable by its path, as the summary's names say.
    const invoked = await driver.call("invoke_menu", {
      pid: app.pid,
      window_id: app.xid,
      path: ["Window", "Arrange", "Right"],
    });
    assert.equal(invoked.isError, undefined, JSON.stringify(invoked.structuredContent));
    await app.waitFor((e) => e.menu_action === "Window/Arrange/Right");
  },
});
