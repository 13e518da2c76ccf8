import { z } from "../../src/lib/schema/mod.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { SessionRow, sessionRow } from "./_session_view.ts";

/** Pages through this connection's sessions. */
export default defineTool({
  name: "list_sessions",
  title: "List sessions",
  description: "List content-free lifecycle summaries of the sessions this connection owns, oldest first, " +
    "paginated with an opaque cursor.",
  group: "session",
  input: z.strictObject({
    cursor: z.string().optional().describe("Opaque cursor from next_cursor"),
    limit: z.number().int().nullable().optional().describe("1..100, default 50"),
  }),
  output: z.object({ sessions: z.array(SessionRow), next_cursor: z.string().nullable() }),
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  risk: "r0",
  needsDesktop: false,
  capabilities: ["session.lifecycle.list"],
  sessionRequiring: false,
  run(ctx, args) {
    const limit = args.limit ?? 50;
    if (limit < 1 || limit > 100) {
      throw new DriverError("invalid_limit", `limit must be 1..100, not ${limit}`, { field: "limit" });
    }
    let offset = 0;
    if (args.cursor !== undefined) {
      const match = /^o:(\d+)$/.exec(args.cursor);
      if (!match) {
        throw new DriverError("invalid_cursor", `cursor "${args.cursor}" is not one this server issued`, {
          field: "cursor",
        });
      }
      offset = Number(match[1]);
    }
    const all = ctx.state.sessions.list(ctx.lease);
    const page = all.slice(offset, offset + limit).map((s) => sessionRow(ctx, s));
    const next = offset + limit < all.length ? `o:${offset + limit}` : null;
    return Promise.resolve(
      ok({ sessions: page, next_cursor: next }, `✅ ${page.length} of ${all.length} sessions`),
    );
  },
});
