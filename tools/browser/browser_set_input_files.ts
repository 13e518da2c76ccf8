import { z } from "../../src/lib/schema/mod.ts";
import { ELEMENT_STATE } from "../../src/features/browser/_page_scripts.ts";
import { checkUploadFiles, MAX_UPLOAD_FILES } from "../../src/features/browser/paths.ts";
import { resolveRef, resolveTab } from "../../src/features/browser/resolve.ts";
import { backendNodeIdOf, objectIdOf } from "../../src/features/browser/snapshot.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { sessionParam } from "../_shared/params.ts";
import { refParam, tabIdParam, targetIdParam } from "./_params.ts";

/** Assigns local files to a file input. */
export default defineTool({
  name: "browser_set_input_files",
  title: "Set input files",
  description:
    "Assign absolute local files (regular files, no symlinks; at most 32, several only for multiple) to a live <input type=file> ref through CDP; the page gets input and change events. Else protected_resource_scope_invalid. Returns the names and sizes it now holds.",
  group: "browser",
  input: z.strictObject({
    target_id: targetIdParam,
    tab_id: tabIdParam,
    ref: refParam,
    files: z.array(z.string().min(1).max(4096)).min(1).max(MAX_UPLOAD_FILES),
    session: sessionParam,
  }),
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  risk: "r3",
  capabilities: ["browser.files.upload", "browser.cdp"],
  async run(ctx, args) {
    await checkUploadFiles(args.files);
    const handle = await resolveTab(ctx, args.target_id, args.tab_id);
    const entry = resolveRef(ctx, handle, args.ref);
    const { tab } = handle;
    if (entry.type !== "file") {
      throw new DriverError(
        "browser_action_unavailable",
        `Ref ${entry.ref} is a ${entry.role}, not a file input`,
        {
          ref: entry.ref,
          hint: "pass the ref of an <input type=file>",
        },
      );
    }
    if (args.files.length > 1 && !entry.multiple) {
      throw new DriverError("browser_action_unavailable", `The file input ${entry.ref} takes one file`, {
        ref: entry.ref,
        hint: "pass one file, or use an input with the multiple attribute",
      });
    }
    const objectId = await objectIdOf(tab, entry);
    const backendNodeId = await backendNodeIdOf(tab, entry);
    await tab.send("DOM.setFileInputFiles", { files: args.files, backendNodeId });
    const { result } = await tab.send("Runtime.callFunctionOn", {
      functionDeclaration: ELEMENT_STATE,
      objectId,
      returnByValue: true,
    });
    const held = (result.value?.files ?? []) as { name: string; size: number }[];
    const expected = args.files.map((f) => f.slice(f.lastIndexOf("/") + 1));
    const confirmed = held.length === expected.length && held.every((f, i) => f.name === expected[i]);
    return ok(
      { status: "ok", target_id: handle.target.id, tab_id: tab.id, ref: entry.ref, files: held, confirmed },
      `${confirmed ? "✅" : "⚠️"} ${entry.ref} holds ${
        held.map((f) => `${f.name} (${f.size} bytes)`).join(", ") || "no files"
      }` +
        (confirmed ? " (read back)" : " — not the files sent"),
    );
  },
});
