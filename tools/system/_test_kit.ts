/**
 * Unit-test kit for the system tools: a registry of just these tools over a FakeBackend,
 * with a config file in a fresh temporary directory.
 *
 * @module
 */
import { join } from "node:path";
import { ConfigStore } from "../../src/kernel/config.ts";
import { ToolRegistry } from "../../src/kernel/registry.ts";
import type { ToolResult } from "../../src/kernel/result.ts";
import { RuntimeState } from "../../src/kernel/runtime_state.ts";
import { FakeBackend } from "../../src/backends/fake/mod.ts";
import check_for_update from "./check_for_update.ts";
import check_permissions from "./check_permissions.ts";
import get_config from "./get_config.ts";
import health_report from "./health_report.ts";
import set_config from "./set_config.ts";

/** A registry over a fake desktop with a private config file. */
export interface SystemKit extends AsyncDisposable {
  fake: FakeBackend;
  state: RuntimeState;
  dir: string;
  configPath: string;
  call(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  /** A fresh store on the same file, as a restarted driver would load it. */
  reload(): ConfigStore;
}

/** Builds the kit. */
export function systemKit(): SystemKit {
  const dir = Deno.makeTempDirSync({ prefix: "cua-system-test-" });
  const configPath = join(dir, "config.json");
  const fake = new FakeBackend();
  fake.system.cacheDirectory = join(dir, "cache");
  const state = new RuntimeState(new ConfigStore(configPath));
  const registry = new ToolRegistry(
    [check_permissions, health_report, get_config, set_config, check_for_update],
    fake,
    state,
  );
  return {
    fake,
    state,
    dir,
    configPath,
    call: (name, args = {}) => registry.call(name, args, { lease: "test", transport: "cli" }),
    reload: () => new ConfigStore(configPath),
    async [Symbol.asyncDispose]() {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}
