import { join } from "node:path";
import { z } from "../../src/lib/schema/mod.ts";
import { endpointForProcess } from "../../src/features/browser/access.ts";
import { findBrowser, launchBrowser } from "../../src/features/browser/launch.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool, type ToolContext } from "../../src/kernel/tool.ts";
import { sessionParam } from "../_shared/params.ts";
import { browsersOf } from "../../src/features/browser/slot.ts";

const WINDOW_WAIT_MS = 8_000;

function profilesDir(): string {
  const base = Deno.env.get("CUA_DRIVER_CONFIG_DIR") ?? join(Deno.env.get("HOME") ?? "/tmp", ".cua-driver");
  return join(base, "browser-profiles");
}

/** The browser's first top-level window, once mapped; null after the wait. */
async function firstWindow(ctx: ToolContext, pid: number): Promise<number | null> {
  const deadline = Date.now() + WINDOW_WAIT_MS;
  while (Date.now() < deadline && !ctx.signal.aborted) {
    const window = (await ctx.backend.windows.list()).find((w) => w.pid === pid && w.isOnScreen);
    if (window) return window.windowId;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return null;
}

/** Launches an isolated browser or admits an existing profile's DevTools endpoint. */
export default defineTool({
  name: "browser_prepare",
  title: "Prepare browser",
  description:
    'Prepare a DevTools endpoint: allow_launch:true with profile {mode:"isolated_new"} or {mode:"isolated_named", name} launches Chromium for this session; pid with strategy {kind:"existing_profile"} admits the user\'s browser (needs --grant existing-profile). Then get_browser_state.',
  group: "browser",
  input: z.strictObject({
    pid: z.number().int().min(1).optional().describe("An existing browser's main process id"),
    window_id: z.number().int().min(1).optional().describe("One of its windows (from list_windows)"),
    allow_launch: z.boolean().default(false).describe("Launch a new browser with an isolated profile"),
    profile: z.strictObject({
      mode: z.enum(["isolated_new", "isolated_named"]),
      name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional().describe("Profile name for isolated_named"),
    }).optional(),
    strategy: z.strictObject({ kind: z.literal("existing_profile") }).optional(),
    session: sessionParam,
  }),
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  risk: "r2",
  capabilities: ["browser.prepare", "browser.cdp"],
  async run(ctx, args) {
    if (args.allow_launch) {
      if (args.pid !== undefined || args.strategy) {
        throw new DriverError(
          "invalid_arguments",
          "allow_launch launches a new browser: drop pid and strategy",
          {
            field: "pid",
          },
        );
      }
      if (!args.profile) {
        throw new DriverError("invalid_arguments", "allow_launch needs profile.mode", {
          field: "profile",
          hint: 'pass profile {mode: "isolated_new"}',
        });
      }
      return await launch(ctx, args.profile);
    }
    if (args.pid === undefined) {
      throw new DriverError("invalid_arguments", "Pass pid, or allow_launch: true with profile.mode", {
        field: "pid",
      });
    }
    const prepared = browsersOf(ctx.state).prepared.get(args.pid);
    const endpoint = prepared?.browser.endpoint ?? await endpointForProcess(ctx, args.pid);
    if (args.window_id !== undefined) {
      const window = await ctx.backend.windows.get(args.window_id);
      if (!window || window.pid !== args.pid) {
        throw new DriverError(
          "browser_wrong_target_refused",
          `Window ${args.window_id} is not a window of ${args.pid}`,
          {
            hint: "pass a window_id list_windows reports for that pid",
          },
        );
      }
    }
    const windowId = args.window_id ?? await firstWindow(ctx, args.pid);
    return ok(
      {
        status: "ok",
        prepared: prepared ? "launched_earlier" : "existing_profile",
        pid: args.pid,
        window_id: windowId,
        endpoint: { host: endpoint.host, port: endpoint.port },
        product: endpoint.product,
        next: { tool: "get_browser_state", arguments: { pid: args.pid, window_id: windowId } },
      },
      `✅ DevTools endpoint of pid ${args.pid} on 127.0.0.1:${endpoint.port} (${endpoint.product}); ` +
        `bind it with get_browser_state {pid: ${args.pid}, window_id: ${windowId}}`,
    );
  },
});

async function launch(ctx: ToolContext, profile: { mode: "isolated_new" | "isolated_named"; name?: string }) {
  let profileDir: string;
  if (profile.mode === "isolated_named") {
    if (!profile.name) {
      throw new DriverError("invalid_arguments", "isolated_named needs profile.name", {
        field: "profile.name",
      });
    }
    profileDir = join(profilesDir(), profile.name);
    const running = [...browsersOf(ctx.state).prepared.values()].find((p) =>
      p.browser.profileDir === profileDir
    );
    if (running) {
      throw new DriverError(
        "browser_binding_ambiguous",
        `Profile ${profile.name} is already open in pid ${running.browser.pid}`,
        {
          pid: running.browser.pid,
          hint: `call get_browser_state with pid ${running.browser.pid}, or use another profile name`,
        },
      );
    }
    await Deno.mkdir(profileDir, { recursive: true, mode: 0o700 });
  } else {
    profileDir = await Deno.makeTempDir({ prefix: "cua-browser-profile-" });
  }
  const binary = await findBrowser(ctx.backend.system);
  ctx.progress({ message: `starting ${binary} and waiting for its DevTools endpoint` });
  const browser = await launchBrowser(
    ctx.backend.system,
    binary,
    profileDir,
    profile.mode === "isolated_new",
    ctx.signal,
  );
  browsersOf(ctx.state).prepared.set(browser.pid, {
    browser,
    ownerSession: ctx.session.id,
    profile: { mode: profile.mode, name: profile.name ?? null },
  });
  ctx.state.launched.set(browser.pid, {
    pid: browser.pid,
    startTime: await ctx.backend.apps.startTime(browser.pid),
    command: binary,
  });
  const windowId = await firstWindow(ctx, browser.pid);
  return ok(
    {
      status: "ok",
      prepared: "launched",
      pid: browser.pid,
      window_id: windowId,
      endpoint: { host: browser.endpoint.host, port: browser.endpoint.port },
      product: browser.endpoint.product,
      profile: {
        mode: profile.mode,
        name: profile.name ?? null,
        path: profileDir,
        temporary: profile.mode === "isolated_new",
      },
      next: { tool: "get_browser_state", arguments: { pid: browser.pid, window_id: windowId } },
    },
    `✅ Launched ${browser.endpoint.product} (pid ${browser.pid}, window ${windowId}) with an isolated ` +
      `${
        profile.mode === "isolated_new" ? "temporary" : "named"
      } profile; DevTools on 127.0.0.1:${browser.endpoint.port}. ` +
      `Bind it with get_browser_state {pid: ${browser.pid}, window_id: ${windowId}}`,
  );
}
