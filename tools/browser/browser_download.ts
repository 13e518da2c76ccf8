import { z } from "../../src/lib/schema/mod.ts";
import { downloadVia } from "../../src/features/browser/downloads.ts";
import { requireTrustedInput } from "../../src/features/browser/input.ts";
import { checkDownloadRoot } from "../../src/features/browser/paths.ts";
import { resolveRef, resolveTab } from "../../src/features/browser/resolve.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { refParam, tabIdParam, targetIdParam } from "./_params.ts";

/** Triggers a download through a ref and saves it in an approved directory. */
export default defineTool({
  name: "browser_download",
  title: "Browser download",
  description:
    "Download through a live ref (trusted click) into destination_root: an absolute, existing, user-owned directory, no symlinks, not a system or shared root (bounded mode: inside files.write); never overwrites. Returns path, size, SHA-256.",
  group: "browser",
  input: z.strictObject({
    session: z.string().min(1).max(200).describe("The lifecycle session label that owns the binding"),
    target_id: targetIdParam,
    tab_id: tabIdParam,
    ref: refParam,
    destination_root: z.string().min(1).max(4096).describe("Absolute approved directory to save into"),
  }),
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  risk: "r3",
  capabilities: ["browser.files.download", "browser.cdp"],
  async run(ctx, args) {
    const root = await checkDownloadRoot(ctx.backend.system, args.destination_root);
    const handle = await resolveTab(ctx, args.target_id, args.tab_id);
    const entry = resolveRef(ctx, handle, args.ref);
    await requireTrustedInput(handle.tab);
    const saved = await downloadVia(handle, entry, root);
    return ok(
      { status: "ok", target_id: handle.target.id, tab_id: handle.tab.id, ref: entry.ref, ...saved },
      `✅ Saved ${saved.url} as ${saved.path} (${saved.bytes} bytes, sha256 ${saved.sha256.slice(0, 12)}…)`,
    );
  },
});
