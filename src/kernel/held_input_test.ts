import assert from "node:assert/strict";
import { FakeBackend } from "../backends/fake/mod.ts";
import { HeldInput } from "./held_input.ts";

Deno.test("HeldInput releases what the core pressed, newest first, on every channel", async () => {
  const fake = new FakeBackend();
  const held = new HeldInput(fake.input);
  const keyboard = await held.keyboard("global");
  const pointer = await held.pointer("background");
  await keyboard.down("ctrl");
  await keyboard.down("shift");
  await keyboard.press("a", []);
  await pointer.button("left", true);
  await pointer.button("right", true);
  await pointer.button("right", false);
  assert.deepEqual(held.held("global"), { keys: ["ctrl", "shift"], buttons: [] });
  assert.deepEqual(held.held("background"), { keys: [], buttons: ["left"] });
  fake.calls.length = 0;
  await held.releaseAll();
  assert.deepEqual(
    fake.calls.filter((c) => !c.startsWith("input.pointer ") && !c.startsWith("input.keyboard ")),
    [
      "keyboard.global.up shift",
      "keyboard.global.up ctrl",
      "pointer.background.up left",
      "input.releaseAll",
    ],
  );
  assert.deepEqual(held.held("global"), { keys: [], buttons: [] });
  fake.calls.length = 0;
  await held.releaseAll();
  assert.deepEqual(fake.calls, ["input.releaseAll"], "nothing is released twice");
});

Deno.test("HeldInput forgets a key released with up, and a back end without releaseAll is fine", async () => {
  const fake = new FakeBackend();
  const { releaseAll: _dropped, ...input } = fake.input;
  const held = new HeldInput(input);
  const keyboard = await held.keyboard("background");
  await keyboard.down("alt");
  await keyboard.up("alt");
  await keyboard.down("super");
  fake.calls.length = 0;
  await held.releaseAll();
  assert.deepEqual(fake.calls.filter((c) => c.startsWith("keyboard.")), ["keyboard.background.up super"]);
});
