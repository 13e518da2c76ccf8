import assert from "node:assert/strict";
import { DriverError } from "../../ports/errors.ts";
import {
  CANONICAL_KEYS,
  formatCombo,
  graphemes,
  isModifier,
  keyFromProtoName,
  modifierOf,
  parseCombo,
  parseHotkeyList,
  parseKey,
} from "./key_names.ts";

function rejects(fn: () => unknown): DriverError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof DriverError, `expected a DriverError, got ${error}`);
    return error;
  }
  assert.fail("expected an error");
}

Deno.test("parseKey reads named keys in any case and with X keysym spellings", () => {
  const named = (name: string) => ({ kind: "named", name });
  assert.deepEqual(parseKey("Return"), named("Enter"));
  assert.deepEqual(parseKey("enter"), named("Enter"));
  assert.deepEqual(parseKey("ENTER"), named("Enter"));
  assert.deepEqual(parseKey("esc"), named("Escape"));
  assert.deepEqual(parseKey("Tab"), named("Tab"));
  assert.deepEqual(parseKey("space"), named("Space"));
  assert.deepEqual(parseKey("BackSpace"), named("Backspace"));
  assert.deepEqual(parseKey("del"), named("Delete"));
  assert.deepEqual(parseKey("Page_Up"), named("PageUp"));
  assert.deepEqual(parseKey("page down"), named("PageDown"));
  assert.deepEqual(parseKey("Prior"), named("PageUp"));
  assert.deepEqual(parseKey("Next"), named("PageDown"));
  assert.deepEqual(parseKey("up"), named("ArrowUp"));
  assert.deepEqual(parseKey("ArrowLeft"), named("ArrowLeft"));
  assert.deepEqual(parseKey("f1"), named("F1"));
  assert.deepEqual(parseKey("F24"), named("F24"));
  assert.deepEqual(parseKey("menu"), named("ContextMenu"));
  assert.deepEqual(parseKey("capslock"), named("CapsLock"));
  assert.deepEqual(parseKey("Caps_Lock"), named("CapsLock"));
  assert.deepEqual(parseKey("printscreen"), named("PrintScreen"));
  assert.deepEqual(parseKey("insert"), named("Insert"));
  assert.deepEqual(parseKey("KP_Enter"), named("NumpadEnter"));
  assert.deepEqual(parseKey("kp_7"), named("Numpad7"));
  assert.deepEqual(parseKey("Super_L"), named("SuperLeft"));
  assert.deepEqual(parseKey("XF86AudioRaiseVolume"), named("AudioVolumeUp"));
  assert.deepEqual(parseKey("XF86Back"), named("BrowserBack"));
  assert.deepEqual(parseKey("AudioVolumeMute"), named("AudioVolumeMute"));
  assert.deepEqual(parseKey("\n"), named("Enter"));
  assert.deepEqual(parseKey("\t"), named("Tab"));
});

Deno.test("parseKey keeps a single character's case and names punctuation", () => {
  const char = (c: string) => ({ kind: "char", char: c });
  assert.deepEqual(parseKey("a"), char("a"));
  assert.deepEqual(parseKey("A"), char("A"));
  assert.deepEqual(parseKey("1"), char("1"));
  assert.deepEqual(parseKey("+"), char("+"));
  assert.deepEqual(parseKey(" "), char(" "));
  assert.deepEqual(parseKey("é"), char("é"));
  assert.deepEqual(parseKey("e\u0301"), char("e\u0301"), "a decomposed grapheme is one character");
  assert.deepEqual(parseKey("日"), char("日"));
  assert.deepEqual(parseKey("🎉"), char("🎉"));
  assert.deepEqual(parseKey("plus"), char("+"));
  assert.deepEqual(parseKey("minus"), char("-"));
  assert.deepEqual(parseKey("comma"), char(","));
  assert.deepEqual(parseKey("period"), char("."));
  assert.deepEqual(parseKey("slash"), char("/"));
  assert.deepEqual(parseKey("backslash"), char("\\"));
  assert.deepEqual(parseKey("semicolon"), char(";"));
  assert.deepEqual(parseKey("quote"), char("'"));
  assert.deepEqual(parseKey("grave"), char("`"));
  assert.deepEqual(parseKey("bracketleft"), char("["));
  assert.deepEqual(parseKey("BracketRight"), char("]"));
});

Deno.test("parseKey rejects unknown names with invalid_arguments, the field and a hint", () => {
  const error = rejects(() => parseKey("xyz", "key"));
  assert.equal(error.code, "invalid_arguments");
  assert.equal(error.message, 'Unknown key "xyz"');
  assert.equal(error.data.field, "key");
  assert.match(String(error.data.hint), /Return, Tab, a, F5/);
  assert.equal(rejects(() => parseKey("")).code, "invalid_arguments");
  assert.equal(rejects(() => parseKey("F25")).code, "invalid_arguments");
  assert.equal(rejects(() => parseKey("ab")).code, "invalid_arguments");
  assert.equal(
    rejects(() => parseKey("\u0007")).code,
    "invalid_arguments",
    "control characters are not keys",
  );
});

Deno.test("parseCombo reads modifiers and one key", () => {
  assert.deepEqual(parseCombo("ctrl+shift+t"), {
    modifiers: ["ctrl", "shift"],
    key: { kind: "char", char: "t" },
  });
  assert.deepEqual(parseCombo("Ctrl+Alt+Delete"), {
    modifiers: ["ctrl", "alt"],
    key: { kind: "named", name: "Delete" },
  });
  assert.deepEqual(parseCombo("super+l"), { modifiers: ["super"], key: { kind: "char", char: "l" } });
  assert.deepEqual(parseCombo("Return"), { modifiers: [], key: { kind: "named", name: "Enter" } });
  assert.deepEqual(parseCombo(" ctrl + c "), { modifiers: ["ctrl"], key: { kind: "char", char: "c" } });
});

Deno.test("parseCombo maps cmd, command, meta and win to super and option to alt", () => {
  for (const name of ["cmd", "command", "meta", "win", "windows", "super", "Super_L"]) {
    assert.deepEqual(parseCombo(`${name}+c`).modifiers, ["super"], name);
  }
  assert.deepEqual(parseCombo("option+x").modifiers, ["alt"]);
  assert.deepEqual(parseCombo("control+x").modifiers, ["ctrl"]);
});

Deno.test("parseCombo orders and deduplicates modifiers and lower-cases a letter under a modifier", () => {
  assert.deepEqual(parseCombo("shift+ctrl+ctrl+K"), {
    modifiers: ["ctrl", "shift"],
    key: { kind: "char", char: "k" },
  });
  assert.deepEqual(
    parseCombo("A"),
    { modifiers: [], key: { kind: "char", char: "A" } },
    "alone, case is kept",
  );
});

Deno.test("parseCombo reads the plus key as ctrl++ and ctrl+plus", () => {
  assert.deepEqual(parseCombo("ctrl++"), { modifiers: ["ctrl"], key: { kind: "char", char: "+" } });
  assert.deepEqual(parseCombo("ctrl+plus"), { modifiers: ["ctrl"], key: { kind: "char", char: "+" } });
  assert.deepEqual(parseCombo("+"), { modifiers: [], key: { kind: "char", char: "+" } });
});

Deno.test("parseCombo accepts a lone modifier as the key", () => {
  assert.deepEqual(parseCombo("shift"), { modifiers: [], key: { kind: "named", name: "Shift" } });
  assert.deepEqual(parseCombo("ctrl+shift"), { modifiers: ["ctrl"], key: { kind: "named", name: "Shift" } });
});

Deno.test("parseCombo rejects empty parts, unknown names and keys before the last part", () => {
  assert.equal(rejects(() => parseCombo("ctrl+")).code, "invalid_arguments");
  assert.equal(rejects(() => parseCombo("+a")).code, "invalid_arguments");
  assert.equal(rejects(() => parseCombo("")).code, "invalid_arguments");
  const unknown = rejects(() => parseCombo("ctrl+xyz", "key"));
  assert.equal(unknown.message, 'Unknown key "xyz"');
  assert.equal(unknown.data.field, "key");
  const notModifier = rejects(() => parseCombo("a+b"));
  assert.match(notModifier.message, /"a" in "a\+b" is not a modifier/);
  assert.match(rejects(() => parseCombo("hyper+b")).message, /Unknown key "hyper"/);
});

Deno.test("parseHotkeyList takes modifiers then one key, and combos as elements", () => {
  assert.deepEqual(parseHotkeyList(["ctrl", "shift", "t"]), {
    modifiers: ["ctrl", "shift"],
    key: { kind: "char", char: "t" },
  });
  assert.deepEqual(parseHotkeyList(["ctrl+c"]), { modifiers: ["ctrl"], key: { kind: "char", char: "c" } });
  assert.deepEqual(parseHotkeyList(["ctrl+shift", "Escape"]), {
    modifiers: ["ctrl", "shift"],
    key: { kind: "named", name: "Escape" },
  });
  assert.deepEqual(parseHotkeyList(["cmd", "+"]), { modifiers: ["super"], key: { kind: "char", char: "+" } });
  assert.deepEqual(parseHotkeyList(["F5"]), { modifiers: [], key: { kind: "named", name: "F5" } });
});

Deno.test("parseHotkeyList rejects an empty list, a modifier-only list and a key in the middle", () => {
  const empty = rejects(() => parseHotkeyList([]));
  assert.equal(empty.data.field, "keys");
  const onlyModifiers = rejects(() => parseHotkeyList(["ctrl", "shift"]));
  assert.equal(onlyModifiers.code, "invalid_arguments");
  assert.match(onlyModifiers.message, /non-modifier key last/);
  assert.match(String(onlyModifiers.data.hint), /press_key/);
  assert.match(rejects(() => parseHotkeyList(["a", "ctrl"])).message, /not a modifier/);
  assert.equal(rejects(() => parseHotkeyList(["ctrl", "nope"])).message, 'Unknown key "nope"');
});

Deno.test("isModifier and modifierOf recognise modifier names and sided keys", () => {
  assert.equal(isModifier("ctrl"), true);
  assert.equal(isModifier("Control_R"), true);
  assert.equal(isModifier("cmd"), true);
  assert.equal(isModifier({ kind: "named", name: "ShiftLeft" }), true);
  assert.equal(isModifier("a"), false);
  assert.equal(isModifier("AltGr"), false, "AltGr picks a level; it is a key, not a combo modifier");
  assert.equal(isModifier("nonsense"), false);
  assert.equal(modifierOf("option"), "alt");
  assert.equal(modifierOf("RCtrl"), "ctrl");
});

Deno.test("formatCombo writes what parseCombo reads back", () => {
  for (const text of ["ctrl+shift+t", "alt+F4", "ctrl+plus", "super+Space", "Enter"]) {
    const combo = parseCombo(text);
    assert.deepEqual(parseCombo(formatCombo(combo)), combo, text);
  }
  assert.equal(formatCombo(parseCombo("Ctrl+Shift+K")), "ctrl+shift+k");
});

Deno.test("every canonical key parses as itself", () => {
  for (const name of CANONICAL_KEYS) assert.deepEqual(parseKey(name), { kind: "named", name }, name);
});

Deno.test("keyFromProtoName maps cua.env.v1.Key names", () => {
  const named = (name: string) => ({ kind: "named", name });
  const char = (c: string) => ({ kind: "char", char: c });
  assert.deepEqual(keyFromProtoName("KEY_ENTER"), named("Enter"));
  assert.deepEqual(keyFromProtoName("KEY_A"), char("a"));
  assert.deepEqual(keyFromProtoName("KEY_Z"), char("z"));
  assert.deepEqual(keyFromProtoName("KEY_DIGIT_1"), char("1"));
  assert.deepEqual(keyFromProtoName("KEY_F5"), named("F5"));
  assert.deepEqual(keyFromProtoName("KEY_F24"), named("F24"));
  assert.deepEqual(keyFromProtoName("KEY_ARROW_UP"), named("ArrowUp"));
  assert.deepEqual(keyFromProtoName("KEY_CONTROL_LEFT"), named("ControlLeft"));
  assert.deepEqual(keyFromProtoName("KEY_META"), named("Super"));
  assert.deepEqual(keyFromProtoName("KEY_META_RIGHT"), named("SuperRight"));
  assert.deepEqual(keyFromProtoName("KEY_PAGE_DOWN"), named("PageDown"));
  assert.deepEqual(keyFromProtoName("KEY_CONTEXT_MENU"), named("ContextMenu"));
  assert.deepEqual(keyFromProtoName("KEY_BACKQUOTE"), char("`"));
  assert.deepEqual(keyFromProtoName("KEY_INTL_BACKSLASH"), named("IntlBackslash"));
  assert.deepEqual(keyFromProtoName("KEY_NUMPAD_0"), named("Numpad0"));
  assert.deepEqual(keyFromProtoName("KEY_NUMPAD_ENTER"), named("NumpadEnter"));
  assert.deepEqual(keyFromProtoName("KEY_NUM_LOCK"), named("NumLock"));
  assert.deepEqual(keyFromProtoName("KEY_VOLUME_UP"), named("AudioVolumeUp"));
  assert.deepEqual(keyFromProtoName("KEY_MEDIA_PREVIOUS"), named("MediaTrackPrevious"));
  assert.deepEqual(keyFromProtoName("KEY_LAUNCH_APP2"), named("LaunchApp2"));
  assert.deepEqual(keyFromProtoName("KEY_FN"), named("Fn"));
});

Deno.test("keyFromProtoName rejects KEY_UNSPECIFIED and unknown names", () => {
  for (const name of ["KEY_UNSPECIFIED", "KEY_NOPE", "ENTER", "key_enter", ""]) {
    const error = rejects(() => keyFromProtoName(name));
    assert.equal(error.code, "invalid_arguments", name);
  }
});

Deno.test("graphemes counts user-perceived characters", () => {
  assert.deepEqual(graphemes("Héllo 🎉"), ["H", "é", "l", "l", "o", " ", "🎉"]);
  assert.equal(graphemes("e\u0301👩‍👩‍👧").length, 2);
});
