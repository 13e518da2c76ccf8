import assert from "node:assert/strict";
import { ConnectError } from "@connectrpc/connect";
import { parseKey } from "../../../lib/keys/key_names.ts";
import { Key, KeySchema } from "./gen/cua/env/v1/computer_pb.ts";
import { keyName, modifierNames } from "./keys.ts";

Deno.test("keyName spells every cua.env.v1.Key so the keyboard tools parse it", () => {
  for (const value of KeySchema.values) {
    if (value.number === Key.UNSPECIFIED) continue;
    const name = keyName(value.number, "key");
    assert.doesNotThrow(() => parseKey(name), `${value.name} -> ${name}`);
  }
  assert.equal(keyName(Key.A, "key"), "a");
  assert.equal(keyName(Key.DIGIT_1, "key"), "1");
  assert.equal(keyName(Key.BACKQUOTE, "key"), "`");
  assert.equal(keyName(Key.PAGE_UP, "key"), "PageUp");
  assert.equal(keyName(Key.META_LEFT, "key"), "SuperLeft");
  assert.equal(keyName(Key.VOLUME_UP, "key"), "AudioVolumeUp");
});

Deno.test("keyName refuses KEY_UNSPECIFIED and unknown numbers as invalid arguments naming the field", () => {
  for (const key of [Key.UNSPECIFIED, 99999 as Key]) {
    assert.throws(() => keyName(key, "press.key"), (error: unknown) => {
      assert.ok(error instanceof ConnectError);
      assert.match(error.message, /press\.key/);
      return true;
    });
  }
});

Deno.test("modifierNames folds left and right keys and rejects a non-modifier", () => {
  assert.deepEqual(modifierNames([Key.CONTROL_LEFT, Key.CONTROL_RIGHT, Key.SHIFT], "m"), ["ctrl", "shift"]);
  assert.throws(() => modifierNames([Key.A], "m"), /not a modifier/);
});
