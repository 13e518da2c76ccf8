/**
 * The browser tools end to end against a real Chromium launched through
 * browser_prepare (isolated profile) on the test desktop, on a fixture site served
 * on loopback. Every effect is checked in state the page or the server recorded,
 * read back independently (a raw DevTools socket of the test's own, the server's
 * submissions, the file on disk); every refusal is checked for its exact code and
 * the browser refusal shape (no isError).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { ToolResult } from "../../src/kernel/result.ts";
import { closeTab, evalIn, openTab } from "../_helpers/cdp_oracle.ts";
import { e2eRequired, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { describeResult, startTestDriver, type Structured } from "../_helpers/in_process_driver.ts";
import { startWebFixture } from "../_helpers/web_fixture.ts";

// Without Chromium the test is skipped, unless e2e tests are required (then it fails in browser_prepare).
const hasChromium = await Deno.stat("/usr/bin/chromium").then(() => true, () => false);
const ignore = ignoreWithoutDesktop() || (!hasChromium && !e2eRequired());
const SESSION = "browser-e2e";

/** Asserts a browser refusal with `code`: isError absent, text and structured shape of contract.md §2.2. */
function assertRefused(result: ToolResult, code: string): Structured {
  assert.equal(result.isError, undefined, `browser refusals are not isError: ${describeResult(result)}`);
  const structured = result.structuredContent as Structured;
  assert.equal(structured?.status, "refused", describeResult(result));
  assert.equal(structured.refusal.code, code, describeResult(result));
  assert.ok(result.content[0].type === "text" && result.content[0].text.startsWith(`refused (${code}): `));
  return structured.refusal;
}

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test({
  name: "browser tools drive a real Chromium: form, dialogs, files, download, pointer, refusals, escalation",
  ignore,
  async fn(t) {
    const started = performance.now();
    await using site = startWebFixture();
    await using driver = await startTestDriver();
    const scratch = await Deno.makeTempDir({ prefix: "cua-browser-test-" });
    const call = (name: string, args: Record<string, unknown>) =>
      driver.call(name, { session: SESSION, ...args });
    const ok = async (name: string, args: Record<string, unknown>): Promise<Structured> => {
      const result = await call(name, args);
      assert.equal(result.isError, undefined, `${name}: ${describeResult(result)}`);
      const structured = result.structuredContent as Structured;
      assert.notEqual(structured.status, "refused", `${name}: ${describeResult(result)}`);
      return structured;
    };
    try {
      const prepared = await ok("browser_prepare", { allow_launch: true, profile: { mode: "isolated_new" } });
      const { pid, window_id: windowId } = prepared;
      const port = prepared.endpoint.port as number;
      assert.ok(pid > 0 && windowId > 0, "the browser has a desktop window");
      const profileDir = prepared.profile.path as string;

      const bound = await ok("get_browser_state", { pid, window_id: windowId });
      assert.deepEqual([bound.status, bound.binding_quality, bound.mutation_allowed], ["ok", "exact", true]);
      const target = bound.target_id as string;
      const tab = bound.tabs[0].tab_id as string;
      await ok("browser_navigate", { target_id: target, tab_id: tab, url: `${site.origin}/` });
      const journal = () => evalIn(port, site.origin, "window.__journal");
      const snapshot = async (format = "dom_refs_v1") => {
        const snap = await ok("get_browser_state", {
          target_id: target,
          tab_id: tab,
          snapshot_format: format,
        });
        const ref = (domId: string) => {
          const found = (snap.refs as Structured[]).find((r) => r.dom_id === domId);
          assert.ok(
            found,
            `snapshot has #${domId}: ${JSON.stringify(snap.refs.map((r: Structured) => r.dom_id))}`,
          );
          return found.ref as string;
        };
        return { snap, ref };
      };
      const at = { target_id: target, tab_id: tab };

      await t.step(
        "a background type_text into Chromium escalates to the page rung, which types the text",
        async () => {
          const refused = await driver.call("type_text", {
            pid,
            window_id: windowId,
            text: "Ada",
            session: SESSION,
          });
          assert.equal(refused.isError, true);
          const envelope = refused.structuredContent as Structured;
          assert.equal(envelope.code, "background_unavailable");
          assert.equal(envelope.escalation.recommended, "page");
          assert.deepEqual(envelope.escalation.bind, {
            tool: "get_browser_state",
            arguments: { pid, window_id: windowId },
          });
          const rebound = await ok(envelope.escalation.bind.tool, envelope.escalation.bind.arguments);
          assert.equal(rebound.target_id, target, "the same window binds to the same target");
          const { ref } = await snapshot();
          const typed = await ok("browser_type", { ...at, ref: ref("name"), text: "Ada" });
          assert.deepEqual([typed.effect, typed.route], ["confirmed", "trusted_input"]);
          assert.equal(await evalIn(port, site.origin, "document.getElementById('name').value"), "Ada");
        },
      );

      await t.step("a form is filled and submitted", async () => {
        const { ref } = await snapshot();
        // The snapshot's elements stay in the driver's isolated world: page scripts cannot see them.
        assert.equal(await evalIn(port, site.origin, "typeof globalThis.__cuaSnapshots"), "undefined");
        const replaced = await ok("browser_type", {
          ...at,
          ref: ref("name"),
          text: "Ada Lovelace",
          replace: true,
        });
        assert.equal(replaced.effect, "confirmed");
        const keys = await ok("browser_type", {
          ...at,
          ref: ref("comment"),
          text: "Hi\nthere",
          mode: "keystrokes",
        });
        assert.equal(keys.effect, "confirmed");
        assert.equal(
          await evalIn(port, site.origin, "document.getElementById('comment').value"),
          "Hi\nthere",
        );
        const sent = await ok("browser_click", { ...at, ref: ref("send") });
        assert.deepEqual([sent.effect, sent.evidence], ["confirmed", [{ kind: "window_change" }]]);
        assert.deepEqual(site.submissions, [{ name: "Ada Lovelace", comment: "Hi\r\nthere" }]);
        // The tab navigated away from the snapshot its refs came from: refused, not guessed at.
        assertRefused(await call("browser_click", { ...at, ref: ref("send") }), "browser_binding_stale");
        await snapshot(); // re-binds the tab to the thanks page
        await ok("browser_navigate", { ...at, url: `${site.origin}/` });
      });

      await t.step("an alert is accepted and a confirm dismissed", async () => {
        const { ref } = await snapshot();
        const clicked = await ok("browser_click", { ...at, ref: ref("alert") });
        assert.equal(clicked.effect, "confirmed");
        const seen = await ok("browser_dialog", { ...at, action: "inspect" });
        assert.deepEqual([seen.dialog.type, seen.dialog.message], ["alert", "Hello from the page"]);
        assertRefused(
          await call("browser_click", { ...at, ref: ref("confirm") }),
          "browser_action_unavailable",
        );
        await ok("browser_dialog", { ...at, action: "accept", dialog_id: seen.dialog.dialog_id });
        await ok("browser_click", { ...at, ref: ref("confirm") });
        const dismissed = await ok("browser_dialog", { ...at, action: "dismiss" });
        assert.equal(dismissed.result.accepted, false);
        const kinds = (await journal()).map((e: Structured) =>
          e.kind === "confirm" ? `confirm:${e.result}` : e.kind
        );
        assert.deepEqual(kinds, ["alert_closed", "confirm:false"]);
        assert.equal((await ok("browser_dialog", { ...at, action: "inspect" })).dialog, null);
      });

      await t.step("a file is uploaded; a symlinked file is refused", async () => {
        const file = join(scratch, "notes.txt");
        await Deno.writeTextFile(file, "twelve bytes");
        const { ref } = await snapshot();
        const set = await ok("browser_set_input_files", { ...at, ref: ref("file"), files: [file] });
        assert.deepEqual(set.files, [{ name: "notes.txt", size: 12 }]);
        const record = (await journal()).find((e: Structured) => e.kind === "file");
        assert.deepEqual(record.files, [{ name: "notes.txt", size: 12 }]);
        const link = join(scratch, "link.txt");
        await Deno.symlink(file, link);
        const refusal = assertRefused(
          await call("browser_set_input_files", { ...at, ref: ref("file"), files: [link] }),
          "protected_resource_scope_invalid",
        );
        assert.equal(refusal.detail.reason, "symlink");
      });

      await t.step("a download is saved in an approved directory; other roots are refused", async () => {
        const root = join(scratch, "downloads");
        await Deno.mkdir(root);
        const { ref } = await snapshot();
        const saved = await ok("browser_download", { ...at, ref: ref("dl"), destination_root: root });
        assert.equal(saved.path, join(root, "report.bin"));
        assert.deepEqual(await Deno.readFile(saved.path), site.download);
        assert.equal(saved.sha256, await sha256(site.download));
        for (const outside of ["/etc", "/tmp", "/usr/share"]) {
          const refusal = assertRefused(
            await call("browser_download", { ...at, ref: ref("dl"), destination_root: outside }),
            "protected_resource_scope_invalid",
          );
          assert.equal(refusal.detail.reason, "outside_approved_directories", outside);
        }
        await Deno.symlink(root, join(scratch, "linked-root"));
        assertRefused(
          await call("browser_download", {
            ...at,
            ref: ref("dl"),
            destination_root: join(scratch, "linked-root"),
          }),
          "protected_resource_scope_invalid",
        );
      });

      await t.step(
        "hover, scroll and drag are proven by page state; DOM-event clicks and screenshots",
        async () => {
          const { ref, snap } = await snapshot("semantic_v2");
          assert.match(snap.outline as string, /Drop zone/);
          const agree = (snap.refs as Structured[]).find((r) => r.dom_id === "agree")!;
          assert.deepEqual([agree.role, agree.checked, agree.actions.includes("click")], [
            "checkbox",
            false,
            true,
          ]);
          const ticked = await ok("browser_click", { ...at, ref: ref("agree"), input_route: "dom_event" });
          assert.deepEqual([ticked.effect, ticked.route], ["confirmed", "dom"]);
          assert.equal(await evalIn(port, site.origin, "document.getElementById('agree').checked"), true);
          const hover = await ok("browser_pointer", { ...at, action: "hover", ref: ref("hoverbox") });
          assert.equal(hover.effect, "confirmed");
          assert.equal(
            await evalIn(port, site.origin, "document.getElementById('hoverbox').matches(':hover')"),
            true,
          );
          const scroll = await ok("browser_pointer", {
            ...at,
            action: "scroll",
            ref: ref("scroller"),
            delta_y: 200,
          });
          assert.equal(scroll.effect, "confirmed");
          assert.ok(await evalIn(port, site.origin, "document.getElementById('scroller').scrollTop") > 0);
          const drag = await ok("browser_pointer", {
            ...at,
            action: "drag",
            ref: ref("drag"),
            destination_ref: ref("drop"),
          });
          assert.equal(drag.effect, "confirmed");
          const dragged = (await journal()).find((e: Structured) => e.kind === "dragged");
          assert.equal(dragged?.inside, true, JSON.stringify(await journal()));
          await ok("browser_pointer", {
            ...at,
            action: "drag",
            ref: ref("h5"),
            destination_ref: ref("drop"),
          });
          const dropped = (await journal()).find((e: Structured) => e.kind === "h5drop");
          assert.equal(dropped?.data, "h5", "HTML5 drag and drop delivered its data");
          // A new snapshot (with a screenshot, filtered by query) supersedes the refs above.
          const shot = await call("get_browser_state", {
            ...at,
            include_screenshot: true,
            query: "Drop zone",
          });
          const meta = shot.structuredContent as Structured;
          assert.equal(shot.content.filter((p) => p.type === "image").length, 1);
          assert.ok(meta.screenshot_width > 0 && meta.screenshot.pixel_to_css_scale_x > 0);
          assert.deepEqual(meta.refs.map((r: Structured) => r.name), ["Drop zone"]);
        },
      );

      await t.step("stale refs, closed tabs and file:/javascript:/data: navigation are refused", async () => {
        const first = await snapshot();
        const old = first.ref("alert");
        await snapshot();
        assertRefused(await call("browser_click", { ...at, ref: old }), "browser_ref_stale");
        for (const url of ["file:///etc/passwd", "javascript:alert(1)", "data:text/html,<p>x"]) {
          assertRefused(await call("browser_navigate", { ...at, url }), "browser_origin_outside_scope");
        }
        const cdpId = await openTab(port, `${site.origin}/other`);
        const listed = await ok("get_browser_state", { pid, window_id: windowId });
        const extra = (listed.tabs as Structured[]).find((x) => x.url.endsWith("/other"));
        assert.ok(extra, "the new tab is listed");
        await closeTab(port, cdpId);
        assertRefused(
          await call("browser_click", { target_id: target, tab_id: extra.tab_id, x: 10, y: 10 }),
          "browser_tab_not_found",
        );
        assertRefused(
          await call("browser_click", { target_id: "b00000000", tab_id: tab, x: 1, y: 1 }),
          "browser_binding_stale",
        );
      });

      await t.step("legacy page reads, and refuses mutations outside unrestricted mode", async () => {
        const text = await ok("page", {
          action: "get_text",
          pid,
          window_id: windowId,
          target_url_contains: site.origin,
        });
        assert.match(text.text, /Fixture/);
        assertRefused(
          await call("page", { action: "execute_javascript", pid, window_id: windowId, javascript: "1" }),
          "unbounded_operation_requires_unrestricted",
        );
      });

      await t.step("ending the session closes the browser it prepared", async () => {
        await ok("end_session", {});
        const gone = await waitUntil(() => Deno.stat(`/proc/${pid}`).then(() => false, () => true));
        assert.ok(gone, "the browser process exited");
        assert.equal(
          await Deno.stat(profileDir).then(() => true, () => false),
          false,
          "temporary profile removed",
        );
      });
    } finally {
      await Deno.remove(scratch, { recursive: true }).catch(() => {});
      console.log(`browser e2e: ${Math.round(performance.now() - started)} ms`);
    }
  },
});

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}
