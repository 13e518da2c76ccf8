import assert from "node:assert/strict";
import { DEFAULT_CONFIG } from "../../src/kernel/config.ts";
import { systemKit } from "./_test_kit.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

Deno.test("get_config reports the version, source commit, platform, file and defaults", async () => {
  await using kit = systemKit();
  const result = await kit.call("get_config");
  assert.equal(result.isError, undefined);
  const out = result.structuredContent as Any;
  assert.equal(out.version, (await import("../../src/version.ts")).VERSION);
  assert.match(out.source_sha, /^([0-9a-f]{40}|unknown)$/);
  assert.equal(out.platform, "linux");
  assert.equal(out.config_path, kit.configPath);
  assert.equal(out.max_image_dimension, DEFAULT_CONFIG.max_image_dimension);
  assert.equal(out.capture_mode, "ax");
});

Deno.test("set_config {key, value} persists at once and a new store reads it back", async () => {
  await using kit = systemKit();
  const result = await kit.call("set_config", { key: "max_image_dimension", value: 800 });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.deepEqual((result.structuredContent as Any).changed, ["max_image_dimension"]);
  assert.equal(JSON.parse(await Deno.readTextFile(kit.configPath)).max_image_dimension, 800);
  assert.equal(kit.reload().values.max_image_dimension, 800);
  assert.equal(((await kit.call("get_config")).structuredContent as Any).max_image_dimension, 800);
});

Deno.test("set_config accepts the legacy flat fields, 0 meaning no limit", async () => {
  await using kit = systemKit();
  const result = await kit.call("set_config", { max_image_dimension: 0, capture_mode: "vision" });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.deepEqual(kit.reload().values, { max_image_dimension: 0, capture_mode: "vision" });
});

Deno.test("set_config rejects negative and fractional dimensions naming the field, and writes nothing", async () => {
  await using kit = systemKit();
  for (
    const [args, field] of [
      [{ max_image_dimension: -1 }, "max_image_dimension"],
      [{ max_image_dimension: 12.5 }, "max_image_dimension"],
      [{ max_image_dimension: "800" }, "max_image_dimension"],
      [{ key: "max_image_dimension", value: -5 }, "value"],
      [{ key: "max_image_dimension", value: 1.5 }, "value"],
      [{ key: "capture_mode", value: "pixels" }, "value"],
    ] as const
  ) {
    const result = await kit.call("set_config", args);
    assert.equal(result.isError, true, JSON.stringify(args));
    const envelope = result.structuredContent as Any;
    assert.equal(envelope.code, "invalid_arguments");
    assert.equal(envelope.field, field, JSON.stringify(envelope));
    assert.match(envelope.message, /max_image_dimension|capture_mode/);
  }
  await assert.rejects(Deno.stat(kit.configPath), Deno.errors.NotFound);
});

Deno.test("set_config reset restores every default", async () => {
  await using kit = systemKit();
  await kit.call("set_config", { max_image_dimension: 640, capture_mode: "vision" });
  const result = await kit.call("set_config", { reset: true });
  assert.equal(result.isError, undefined);
  assert.equal((result.structuredContent as Any).reset, true);
  assert.deepEqual(kit.reload().values, { ...DEFAULT_CONFIG });
  // reset then set, in one call
  await kit.call("set_config", { reset: true, key: "max_image_dimension", value: 1024 });
  assert.deepEqual(kit.reload().values, { ...DEFAULT_CONFIG, max_image_dimension: 1024 });
});

Deno.test("set_config refuses capture_scope with config_key_retired naming its replacement", async () => {
  await using kit = systemKit();
  for (const args of [{ key: "capture_scope", value: "desktop" }, { capture_scope: "window" }]) {
    const result = await kit.call("set_config", args);
    assert.equal(result.isError, true);
    const envelope = result.structuredContent as Any;
    assert.equal(envelope.code, "config_key_retired");
    assert.equal(envelope.key, "capture_scope");
    assert.equal(envelope.replacement, "action.target");
  }
  await assert.rejects(Deno.stat(kit.configPath), Deno.errors.NotFound);
});

Deno.test("set_config refuses unknown keys listing the valid ones", async () => {
  await using kit = systemKit();
  const byKey = (await kit.call("set_config", { key: "screenshot_size", value: 3 })).structuredContent as Any;
  assert.equal(byKey.code, "invalid_arguments");
  assert.equal(byKey.field, "key");
  assert.deepEqual(byKey.valid_keys, ["max_image_dimension", "capture_mode"]);
  assert.match(byKey.message, /"max_image_dimension", "capture_mode"/);
  const flat = (await kit.call("set_config", { screenshot_size: 3 })).structuredContent as Any;
  assert.equal(flat.code, "invalid_arguments");
  assert.match(flat.message, /Unknown config key "screenshot_size": valid keys are "max_image_dimension"/);
  const nothing = (await kit.call("set_config", {})).structuredContent as Any;
  assert.equal(nothing.code, "invalid_arguments");
  const noValue = (await kit.call("set_config", { key: "max_image_dimension" })).structuredContent as Any;
  assert.equal(noValue.field, "value");
});

Deno.test("set_config can never set authorization: mode, grants and manifest are not config", async () => {
  await using kit = systemKit();
  const attempts = [
    { key: "permission_mode", value: "unrestricted" },
    { key: "grants", value: "existing-profile" },
    { key: "capability_manifest", value: "/tmp/m.yaml" },
    { key: "dangerously_bypass_approvals", value: true },
    { permission_mode: "unrestricted" },
    { grant: "existing-profile" },
  ];
  for (const args of attempts) {
    const result = await kit.call("set_config", args);
    assert.equal(result.isError, true, JSON.stringify(args));
    assert.equal((result.structuredContent as Any).code, "invalid_arguments");
  }
  const refused = (await kit.call("set_config", attempts[0])).structuredContent as Any;
  assert.match(refused.message, /permissions are fixed when the driver starts/);
  assert.equal(kit.state.permissionMode, "standard");
  await assert.rejects(Deno.stat(kit.configPath), Deno.errors.NotFound);
});

Deno.test("ConfigStore keeps another driver's keys but never reads or writes authorization keys", async () => {
  await using kit = systemKit();
  await Deno.writeTextFile(
    kit.configPath,
    JSON.stringify({ experimental_pip: true, permission_mode: "unrestricted", max_image_dimension: 900 }),
  );
  const store = kit.reload();
  assert.equal(store.values.max_image_dimension, 900);
  await store.update({ capture_mode: "vision" });
  const written = JSON.parse(await Deno.readTextFile(kit.configPath));
  assert.deepEqual(written, { experimental_pip: true, max_image_dimension: 900, capture_mode: "vision" });
});
