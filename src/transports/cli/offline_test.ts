import assert from "node:assert/strict";
import { CORE_TOOLS } from "../../kernel/tool_listing.ts";
import { allTools } from "../../../tools/mod.ts";
import { firstSentence, helpText } from "./offline.ts";

Deno.test("firstSentence ends at a sentence's period, not an abbreviation's or one inside brackets", () => {
  assert.equal(
    firstSentence('Invoke a menu item, e.g. ["File", "Save"], by path. Never by pixel.'),
    'Invoke a menu item, e.g. ["File", "Save"], by path.',
  );
  assert.equal(firstSentence("Scroll (by 5. or so) lines. More."), "Scroll (by 5. or so) lines.");
  assert.equal(firstSentence('Say "Done. Now" then stop. Next.'), 'Say "Done. Now" then stop.');
  assert.equal(firstSentence("No period at all"), "No period at all");
});

Deno.test("firstSentence gives every tool a summary with balanced brackets that ends a sentence", () => {
  for (const tool of allTools) {
    const summary = firstSentence(tool.description);
    assert.doesNotMatch(summary, /\b(?:e\.g|i\.e)\.$/, `${tool.name}: ${summary}`);
    for (const [open, close] of [["(", ")"], ["[", "]"]]) {
      assert.equal(summary.split(open).length, summary.split(close).length, `${tool.name}: ${summary}`);
    }
  }
});

Deno.test("helpText counts the core tool set as it is", () => {
  const text = helpText();
  assert.doesNotMatch(text, /dozen/);
  assert.match(text, new RegExp(`or the ${CORE_TOOLS.length} most`));
});
