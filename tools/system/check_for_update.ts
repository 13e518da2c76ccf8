import { join } from "node:path";
import { z } from "../../src/lib/schema/mod.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { checkForUpdate, UPDATE_TIMEOUT_MS } from "../../src/kernel/update_check.ts";
import { sessionParam } from "../_shared/params.ts";

/** Matches cua-driver check_for_update: GitHub releases, a 20-hour cache, "unknown" when offline. */
export default defineTool({
  name: "check_for_update",
  title: "Check for update",
  description:
    `Ask GitHub releases whether a newer cua-driver exists (${
      UPDATE_TIMEOUT_MS / 1000
    } s at most, cached 20 h); ` +
    "offline: status unknown with the error. Never installs anything.",
  group: "system",
  input: z.strictObject({
    session: sessionParam,
    channel: z.enum(["stable", "nightly"]).optional().describe(
      "Release channel to compare with (default stable)",
    ),
    no_cache: z.boolean().optional().describe("Ask GitHub even when a cached answer is fresh"),
  }),
  output: z.object({
    current_version: z.string(),
    current_channel: z.literal("stable"),
    selected_channel: z.enum(["stable", "nightly"]),
    latest_version: z.string().nullable(),
    update_available: z.boolean().nullable(),
    status: z.enum(["unknown", "up_to_date", "update_available"]),
    source: z.literal("github_releases"),
    source_url: z.string(),
    checked_at: z.string(),
    cache_hit: z.boolean(),
    install_command: z.string(),
    release_notes_url: z.string(),
    error: z.string().nullable(),
  }),
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  risk: "r0",
  needsDesktop: false,
  capabilities: ["driver.update.check"],
  async run(ctx, args) {
    const answer = await checkForUpdate({
      channel: args.channel,
      noCache: args.no_cache,
      signal: ctx.signal,
      cachePath: join(ctx.backend.system.cacheDir(), "update-check.json"),
    });
    const text = answer.status === "unknown"
      ? `⚠️ Cannot tell whether an update exists (cua-driver ${answer.current_version}): ${answer.error}`
      : answer.update_available
      ? `⬆️ cua-driver ${answer.latest_version} is available (this is ${answer.current_version}): ` +
        `${answer.release_notes_url}; update with: ${answer.install_command}`
      : `✅ cua-driver ${answer.current_version} is up to date (latest ${answer.selected_channel}: ` +
        `${answer.latest_version})${answer.cache_hit ? " (cached)" : ""}`;
    return ok({ ...answer }, text);
  },
});
