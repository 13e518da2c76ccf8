/**
 * A scroll is `confirmed` only by the scrolled view's own state (its scroll bar's value),
 * never by the window's pixels changing: the fixture's own journal (`scroll_offset`, the
 * vertical adjustment of `scroll-tall`, and `notes_offset`, that of txt-notes' scrolled
 * window) is the judge here.
 *
 * @module
 */
import assert from "node:assert/strict";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { startFixture } from "../_helpers/fixture_app.ts";
import { startTestDriver, type Structured } from "../_helpers/in_process_driver.ts";
import { x } from "../_helpers/x11_probe.ts";

Deno.test({
  name: "scroll by element on a GTK3 scrolled window confirms only what its own scroll bar shows",
  ignore: ignoreWithoutDesktop(),
  async fn(t) {
    const env = desktopEnv();
    await using driver = await startTestDriver();
    await using app = await startFixture(env, { title: "Scroll confirmation", x: 30, y: 30 });
    await using front = await startFixture(env, { title: "Scroll front", x: 700, y: 30 });
    await x("xdotool", "windowactivate", "--sync", String(front.xid));
    const offset = async () => Number((await app.readJournal()).at(-1)!.scroll_offset);
    const token = async (spec: (e: Structured) => boolean) => {
      const state = await driver.ok("get_window_state", { pid: app.pid, window_id: app.xid });
      const found = (state.elements as Structured[]).find(spec);
      assert.ok(found, `the snapshot lists it: ${JSON.stringify(state.elements)}`);
      return found.element_token as string;
    };
    const bar = (e: Structured) => e.role === "scroll bar";
    const notes = (e: Structured) => e.label === "txt-notes";
    const button = (e: Structured) => e.label === "btn-increment";
    const last = async () => (await app.readJournal()).at(-1)!;

    for (const mode of ["foreground", "background"]) {
      await t.step(`${mode}: scrolling up at the top is not confirmed (the offset stays 0)`, async () => {
        assert.equal(await offset(), 0);
        const count = (await app.readJournal()).length;
        const result = await driver.ok("scroll", {
          element_token: await token(bar),
          direction: "up",
          amount: 3,
          delivery_mode: mode,
        });
        assert.equal(await offset(), 0, "the view did not move");
        assert.ok((await app.readJournal()).slice(count).every((e) => e.event !== "scroll"));
        assert.notEqual(result.effect, "confirmed", `nothing scrolled, yet: ${JSON.stringify(result)}`);
      });

      await t.step(
        `${mode}: scrolling an empty text view is not confirmed (its view stays put)`,
        async () => {
          const result = await driver.ok("scroll", {
            element_token: await token(notes),
            direction: "down",
            amount: 6,
            delivery_mode: mode,
          });
          const state = await last();
          assert.equal(state.notes_offset, 0, "the notes view did not move");
          assert.equal(state.scroll_offset, 0, "nor did scroll-tall");
          assert.notEqual(result.effect, "confirmed", `nothing scrolled, yet: ${JSON.stringify(result)}`);
        },
      );

      await t.step(`${mode}: scrolling over a button is not confirmed by its hover highlight`, async () => {
        const result = await driver.ok("scroll", {
          element_token: await token(button),
          direction: "down",
          amount: 3,
          delivery_mode: mode,
        });
        const state = await last();
        assert.equal(state.scroll_offset, 0, "no view scrolled");
        assert.equal(state.notes_offset, 0, "no view scrolled");
        assert.equal(state.counter, 0, "the button was not pressed");
        assert.notEqual(result.effect, "confirmed", `nothing scrolled, yet: ${JSON.stringify(result)}`);
      });

      await t.step(`${mode}: scrolling down is confirmed by the scroll bar's value`, async () => {
        const start = await offset();
        const result = await driver.ok("scroll", {
          element_token: await token(bar),
          direction: "down",
          amount: 2,
          delivery_mode: mode,
        });
        const moved = await app.waitFor((e) => Number(e.scroll_offset) > start);
        assert.ok(Number(moved.scroll_offset) > start);
        assert.equal(result.effect, "confirmed", JSON.stringify(result));
        assert.deepEqual(result.evidence, [{ kind: "value_readback" }], JSON.stringify(result));
        // Back to the top for the next mode, through the fixture's own scroll bar.
        await driver.ok("scroll", {
          element_token: await token(bar),
          direction: "up",
          amount: 20,
          delivery_mode: mode,
        });
        await app.waitFor((e) => Number(e.scroll_offset) === 0);
      });
    }

    // Last: once txt-notes holds text, its scroll bar is listed too.
    for (const mode of ["foreground", "background"]) {
      await t.step(`${mode}: scrolling a full text view up at its top is not confirmed`, async () => {
        if (Number((await last()).notes_len) === 0) {
          await driver.ok("set_value", {
            element_token: await token(notes),
            value: Array.from({ length: 40 }, (_, i) => `line ${i}`).join("\n"),
          });
          await app.waitFor((e) => Number(e.notes_len) > 100);
        }
        if (Number((await last()).notes_offset) !== 0) {
          await driver.ok("scroll", { element_token: await token(notes), direction: "up", amount: 40 });
          await app.waitFor((e) => e.notes_offset === 0);
        }
        const count = (await app.readJournal()).length;
        const result = await driver.ok("scroll", {
          element_token: await token(notes),
          direction: "up",
          amount: 6,
          delivery_mode: mode,
        });
        const after = (await app.readJournal()).slice(count);
        assert.ok(after.every((e) => e.notes_offset === 0), "the notes view did not move");
        assert.notEqual(result.effect, "confirmed", `nothing scrolled, yet: ${JSON.stringify(result)}`);
      });
    }
  },
});
