/**
 * What the GTK3 fixture's entry holds once the app has handled every key sent before now: an
 * xdotool click on its increment button (another client, delivered after every key already
 * queued) is the barrier, and the journal line of that click carries the entry's text.
 *
 * @module
 */
import type { FixtureApp } from "./fixture_app.ts";
import { x } from "./x11_probe.ts";

/** The fixture's entry text after a barrier click. */
export async function settledText(app: FixtureApp): Promise<string> {
  const counter = Number((await app.readJournal()).at(-1)?.counter ?? 0);
  const button = app.widgets["btn-increment"];
  await x(
    "xdotool",
    "mousemove",
    "--window",
    String(app.xid),
    String(button.x + Math.round(button.width / 2)),
    String(button.y + Math.round(button.height / 2)),
    "click",
    "1",
  );
  const entry = await app.waitFor((e) => e.event === "click" && e.counter === counter + 1, 10_000);
  return String(entry.mirror);
}
