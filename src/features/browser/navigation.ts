/**
 * Navigation of a bound tab: http, https and about URLs only, then the tab is
 * re-bound to the new document (its old refs become stale).
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import type { Tab } from "./tab.ts";

const ALLOWED_SCHEMES = new Set(["http:", "https:", "about:"]);
const LOAD_TIMEOUT_MS = 15_000;

/**
 * Parses a URL and refuses schemes other than http, https and about.
 *
 * @throws {DriverError} `invalid_arguments` (not a URL), `browser_origin_outside_scope`.
 */
export function checkNavigableUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DriverError("invalid_arguments", `${JSON.stringify(url)} is not an absolute URL`, {
      field: "url",
      hint: "pass an absolute http, https or about URL",
    });
  }
  if (!ALLOWED_SCHEMES.has(parsed.protocol)) {
    throw new DriverError(
      "browser_origin_outside_scope",
      `Navigation to ${parsed.protocol} URLs is not allowed; only http, https and about`,
      { scheme: parsed.protocol.slice(0, -1), hint: "pass an http, https or about URL" },
    );
  }
  return parsed;
}

/** Where a navigation ended. */
export interface Navigated {
  url: string;
  title: string;
  /** True when the main frame loaded a new document (false for a fragment change). */
  new_document: boolean;
  /** True when the load event fired within 15 s. */
  loaded: boolean;
}

/**
 * Navigates the tab and waits for the load event, then re-binds the tab to the new document.
 *
 * @throws {DriverError} `delivery_failed` when the browser reports a network error.
 */
export async function navigateTab(tab: Tab, url: URL): Promise<Navigated> {
  const loaded = tab.conn.waitFor("Page.loadEventFired", {
    sessionId: tab.sessionId,
    timeoutMs: LOAD_TIMEOUT_MS,
  });
  let result: { loaderId?: string; errorText?: string };
  try {
    result = await tab.send("Page.navigate", { url: url.href }, LOAD_TIMEOUT_MS);
  } catch (error) {
    loaded.cancel();
    throw error;
  }
  if (result.errorText) {
    loaded.cancel();
    throw new DriverError("delivery_failed", `The browser could not load ${url.href}: ${result.errorText}`, {
      url: url.href,
      hint: "check the URL and that the server is reachable",
    });
  }
  const newDocument = result.loaderId !== undefined;
  if (!newDocument) loaded.cancel();
  const fired = newDocument ? (await loaded.promise) !== null : true;
  tab.baseline = await tab.current();
  tab.snapshot = null;
  const title = await tab.send("Runtime.evaluate", { expression: "document.title", returnByValue: true })
    .then((r) => String(r.result.value ?? ""), () => "");
  return { url: tab.baseline.url, title, new_document: newDocument, loaded: fired };
}
