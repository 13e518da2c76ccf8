import { z } from "../../src/lib/schema/mod.ts";
import { sourceSha, VERSION } from "../../src/kernel/build_info.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { sessionParam } from "../_shared/params.ts";
import { platformName } from "./_platform.ts";

/** The persisted configuration, with the build it is read by. */
export const ConfigSnapshot = z.object({
  max_image_dimension: z.number().int().min(0),
  capture_mode: z.enum(["ax", "vision"]),
});

/** Matches cua-driver get_config on Linux, plus the config file's path. */
export default defineTool({
  name: "get_config",
  title: "Get config",
  description:
    "The driver's version and commit, platform, config path and settings (max_image_dimension: longest screenshot edge in pixels, 0 = no limit). Change them with set_config.",
  group: "system",
  input: z.strictObject({ session: sessionParam }),
  output: ConfigSnapshot.extend({
    version: z.string(),
    source_sha: z.string(),
    platform: z.enum(["linux", "darwin", "win32"]),
    config_path: z.string(),
  }),
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  risk: "r0",
  needsDesktop: false,
  capabilities: ["driver.config.read"],
  run(ctx) {
    const values = ctx.state.config.values;
    const structured = {
      version: VERSION,
      source_sha: sourceSha(),
      platform: platformName(ctx),
      config_path: ctx.state.config.path,
      max_image_dimension: values.max_image_dimension,
      capture_mode: values.capture_mode,
    };
    const limit = values.max_image_dimension === 0 ? "no limit" : `${values.max_image_dimension} px`;
    return Promise.resolve(ok(
      structured,
      `✅ cua-driver ${VERSION} (${structured.source_sha.slice(0, 12)}) on ${structured.platform}; ` +
        `max_image_dimension ${limit}, capture_mode ${values.capture_mode} (${structured.config_path})`,
    ));
  },
});
