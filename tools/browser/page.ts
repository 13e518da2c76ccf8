import { z } from "../../src/lib/schema/mod.ts";
import { endpointForProcess } from "../../src/features/browser/access.ts";
import { windowPages } from "../../src/features/browser/binding.ts";
import { CdpConnection } from "../../src/lib/devtools/cdp_client.ts";
import { domPointer } from "../../src/features/browser/dom_events.ts";
import { insertText, pointOf, typeKeys } from "../../src/features/browser/input.ts";
import type { SnapshotRef } from "../../src/features/browser/snapshot.ts";
import { Tab } from "../../src/features/browser/tab.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { ok, type ToolResult } from "../../src/kernel/result.ts";
import { defineTool, type ToolContext } from "../../src/kernel/tool.ts";
import { sessionParam } from "../_shared/params.ts";

const ACTIONS = [
  "execute_javascript",
  "get_text",
  "query_dom",
  "click_element",
  "insert_text",
  "type_keystrokes",
  "enable_javascript_apple_events",
] as const;
const MUTATING = new Set(["execute_javascript", "click_element", "insert_text", "type_keystrokes"]);
const TEXT_LIMIT = 100_000;

const input = z.strictObject({
  action: z.string().min(1).describe(`One of ${ACTIONS.join(", ")}`),
  pid: z.number().int().min(1).optional().describe("The browser's main process id"),
  window_id: z.number().int().min(1).optional().describe("The browser window"),
  selector: z.string().min(1).optional().describe("CSS selector (click_element, insert_text, query_dom)"),
  css_selector: z.string().min(1).optional().describe("CSS selector for query_dom"),
  attributes: z.array(z.string().min(1)).max(32).optional().describe("query_dom: attributes to return"),
  text: z.string().optional().describe("insert_text / type_keystrokes: the text"),
  javascript: z.string().min(1).optional().describe("execute_javascript: the expression or script"),
  cdp_port: z.number().int().min(1).max(65535).optional().describe("The DevTools port (proven to be pid's)"),
  target_url_contains: z.string().min(1).optional().describe("Pick the tab whose URL contains this"),
  bundle_id: z.string().optional().describe("macOS only; ignored"),
  user_has_confirmed_enabling: z.boolean().optional().describe("macOS only; ignored"),
  session: sessionParam,
});
type Args = z.output<typeof input>;

const QUERY = `function (selector, attributes) {
  return [...document.querySelectorAll(selector)].slice(0, 100).map((el) => ({
    tag: el.tagName.toLowerCase(),
    text: (el.innerText || el.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 200),
    attributes: Object.fromEntries(attributes.map((a) => [a, el.getAttribute(a)])),
  }));
}`;

function need<T>(value: T | undefined, field: string, action: string): T {
  if (value === undefined) throw new DriverError("invalid_arguments", `${action} needs ${field}`, { field });
  return value;
}

async function evaluate(tab: Tab, expression: string): Promise<unknown> {
  const { result, exceptionDetails } = await tab.send("Runtime.evaluate", {
    expression,
    returnByValue: true,
    awaitPromise: true,
  });
  if (exceptionDetails) {
    const text = exceptionDetails.exception?.description ?? exceptionDetails.text ?? "exception";
    throw new DriverError("delivery_failed", `The page threw: ${text}`, { hint: "fix the script" });
  }
  return result.value;
}

/** The element a selector matches, as a snapshot-like ref for pointOf; DOM-focused with `focus`. */
async function selected(
  tab: Tab,
  selector: string,
  focus: boolean,
): Promise<SnapshotRef & { objectId: string }> {
  const { result } = await tab.send("Runtime.evaluate", {
    expression: `document.querySelector(${JSON.stringify(selector)})`,
  });
  if (!result.objectId) {
    throw new DriverError("browser_action_unavailable", `No element matches ${JSON.stringify(selector)}`, {
      hint: "check the selector with query_dom",
    });
  }
  const { node } = await tab.send("DOM.describeNode", { objectId: result.objectId });
  if (focus) {
    await tab.send("Runtime.callFunctionOn", {
      functionDeclaration: "function () { this.focus(); }",
      objectId: result.objectId,
    });
  }
  return {
    ref: selector,
    role: node.nodeName.toLowerCase(),
    backendNodeId: node.backendNodeId,
    objectId: result.objectId,
  } as SnapshotRef & { objectId: string };
}

async function perform(tab: Tab, args: Args): Promise<ToolResult> {
  const action = args.action;
  if (action === "get_text") {
    const text = String(await evaluate(tab, "document.body ? document.body.innerText : ''"));
    return ok(
      { text: text.slice(0, TEXT_LIMIT), truncated: text.length > TEXT_LIMIT },
      text.slice(0, TEXT_LIMIT),
    );
  }
  if (action === "query_dom") {
    const selector = need(args.css_selector ?? args.selector, "css_selector", action);
    const { result } = await tab.send("Runtime.evaluate", { expression: "document" });
    const found = await tab.send("Runtime.callFunctionOn", {
      functionDeclaration: QUERY,
      objectId: result.objectId,
      arguments: [{ value: selector }, { value: args.attributes ?? [] }],
      returnByValue: true,
    });
    const elements = found.result.value ?? [];
    return ok({ elements }, JSON.stringify(elements, null, 2));
  }
  if (action === "execute_javascript") {
    const value = await evaluate(tab, need(args.javascript, "javascript", action));
    return ok({ result: value ?? null }, value === undefined ? "undefined" : JSON.stringify(value));
  }
  if (action === "click_element") {
    const selector = need(args.selector, "selector", action);
    const element = await selected(tab, selector, false);
    const at = await pointOf(tab, element);
    // Page-script events: a CDP mouse press makes Chromium activate its window on the desktop.
    await domPointer(tab, { action: "click", objectId: element.objectId, at });
    const frame = await evaluate(
      tab,
      "[screenX, screenY, outerWidth - innerWidth, outerHeight - innerHeight]",
    ) as number[];
    const screen = { x: Math.round(frame[0] + frame[2] + at.x), y: Math.round(frame[1] + frame[3] + at.y) };
    return ok(
      {
        screen_x: screen.x,
        screen_y: screen.y,
        viewport_x: at.x,
        viewport_y: at.y,
        selector,
        input_route: "dom_event",
      },
      `Clicked ${selector} at viewport (${Math.round(at.x)}, ${Math.round(at.y)}) with page-script events`,
    );
  }
  const text = need(args.text, "text", action);
  if (args.selector) await selected(tab, args.selector, true);
  if (action === "insert_text") await insertText(tab, text);
  else await typeKeys(tab, text);
  return ok({ typed: [...text].length }, `Typed ${[...text].length} characters`);
}

async function run(ctx: ToolContext, args: Args): Promise<ToolResult> {
  if (!(ACTIONS as readonly string[]).includes(args.action)) {
    throw new DriverError("invalid_arguments", `Unknown action "${args.action}"`, {
      field: "action",
      hint: `use one of ${ACTIONS.join(", ")}`,
    });
  }
  if (args.action === "enable_javascript_apple_events") {
    throw new DriverError("unsupported_platform", "enable_javascript_apple_events exists on macOS only", {
      hint: "on Linux, page talks to Chromium over DevTools; nothing to enable",
    });
  }
  if (MUTATING.has(args.action)) {
    const enabled = Deno.env.get("CUA_DRIVER_ENABLE_LEGACY_PAGE_MUTATIONS") === "1";
    if (ctx.state.permissionMode !== "unrestricted" || !enabled) {
      throw new DriverError(
        "unbounded_operation_requires_unrestricted",
        `page ${args.action} changes the page without a bound target; it needs unrestricted mode and ` +
          "CUA_DRIVER_ENABLE_LEGACY_PAGE_MUTATIONS=1",
        { hint: "use get_browser_state and browser_click/browser_type instead" },
      );
    }
  }
  const pid = need(args.pid, "pid", args.action);
  const endpoint = await endpointForProcess(ctx, pid, args.cdp_port);
  const conn = await CdpConnection.connect(endpoint.browserWsUrl);
  try {
    const { pages } = await windowPages(ctx, conn, pid, args.window_id);
    const page = pages.find((p) => !args.target_url_contains || p.url.includes(args.target_url_contains));
    if (!page) {
      throw new DriverError("browser_tab_not_found", "No tab of that window matches target_url_contains", {
        urls: pages.map((p) => p.url),
        hint: "pass part of one of these URLs",
      });
    }
    const tab = await Tab.attach(conn, page.targetId, "legacy");
    try {
      return await perform(tab, args);
    } finally {
      await tab.detach();
    }
  } finally {
    await conn.close();
  }
}

/** The legacy page tool: JavaScript, text and DOM queries on a browser tab. */
export default defineTool({
  name: "page",
  title: "Page (legacy)",
  description:
    "Legacy browser compatibility tool; prefer get_browser_state and the browser_* tools. On the " +
    "window pid (+ window_id) of a browser prepared by browser_prepare (or an existing one under the " +
    "existing-profile grant, cdp_port proven to be its own), in the first tab whose URL contains " +
    "target_url_contains: get_text (the body's text), query_dom (css_selector, attributes; 100 elements at " +
    "most), and, only in unrestricted mode with CUA_DRIVER_ENABLE_LEGACY_PAGE_MUTATIONS=1, " +
    "execute_javascript, click_element (selector; page-script mouse events at the element, so the window " +
    "is never activated; returns viewport and approximate screen coordinates), " +
    "insert_text and type_keystrokes. enable_javascript_apple_events is macOS only.",
  group: "browser",
  input,
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  risk: "r3",
  legacy: true,
  capabilities: ["browser.legacy_page", "browser.cdp"],
  run,
});
