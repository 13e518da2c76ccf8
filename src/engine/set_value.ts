/**
 * set_value: a text field's text, a range's number, or a combo box's option,
 * through accessibility only, always read back.
 *
 * @module
 */
import { AxRole } from "../ports/accessibility.ts";
import { DriverError } from "../ports/errors.ts";
import type { SnapshotElement } from "../kernel/snapshots.ts";
import type { ToolContext } from "../kernel/tool.ts";
import { activationAction } from "./click.ts";
import type { Outcome } from "./outcome.ts";
import { lineFeeds, waitForChange, withWatch } from "./readback.ts";
import type { ActionTarget } from "./target.ts";
import { judged, Witness } from "./witness.ts";

const sameRef = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Sets and reads back one element's value. */
export async function setElementValue(
  ctx: ToolContext,
  target: Extract<ActionTarget, { scope: "window" }>,
  element: SnapshotElement,
  value: string,
): Promise<Outcome> {
  const interfaces = element.interfaces ?? [];
  const base = { route: "accessibility" as const, mode: "background" as const, deliveredCount: 1 };
  const described = `${element.platformRole} ${JSON.stringify(element.label)}`;

  if (element.role === AxRole.ComboBox) {
    return await selectOption(ctx, target, element, value);
  }
  // A spin button has both: its text is only a draft until the app commits it, so a number goes to its value.
  const numeric = value.trim() !== "" && Number.isFinite(Number(value));
  const scope = { pid: target.pid, windowId: target.windowId };
  if (interfaces.includes("editable_text") && !(numeric && interfaces.includes("value"))) {
    const witness = await Witness.observe(ctx, scope, [element.ref]);
    const { changed } = await withWatch(ctx, element.ref, async (watch) => {
      if (!(await ctx.backend.accessibility.setText(element.ref, value))) {
        throw new DriverError("delivery_failed", `The app refused to set the text of ${described}`, {
          hint: "the field may be read-only; try type_text",
        });
      }
      witness.sent();
      return await waitForChange(
        () => ctx.backend.accessibility.text(element.ref),
        "\u0000",
        (t) => lineFeeds(t) === lineFeeds(value),
        undefined,
        watch,
      );
    });
    return changed
      ? {
        ...base,
        effect: "confirmed",
        evidence: ["value_readback"],
        summary: `set the text of ${described}`,
      }
      : await judged(witness, {
        ...base,
        effect: "unverifiable",
        summary: `asked to set the text of ${described}; it reads back differently`,
      }, { changed: "unverifiable" });
  }
  if (interfaces.includes("value")) {
    const number = Number(value);
    if (value.trim() === "" || !Number.isFinite(number)) {
      throw new DriverError("invalid_arguments", `${described} takes a number, not "${value}"`, {
        field: "value",
      });
    }
    const range = await ctx.backend.accessibility.value(element.ref);
    if (number < range.min || number > range.max) {
      throw new DriverError(
        "invalid_arguments",
        `${number} is outside ${described}'s range ${range.min}..${range.max}`,
        {
          field: "value",
        },
      );
    }
    const witness = await Witness.observe(ctx, scope, [element.ref]);
    const tolerance = Math.max(range.step / 2, 1e-9);
    const { changed, after } = await withWatch(ctx, element.ref, async (watch) => {
      await ctx.backend.accessibility.setValue(element.ref, number);
      witness.sent();
      return await waitForChange(
        async () => (await ctx.backend.accessibility.value(element.ref)).current,
        range.current,
        (current) => Math.abs(current - number) <= tolerance,
        undefined,
        watch,
      );
    });
    return changed
      ? {
        ...base,
        effect: "confirmed",
        evidence: ["value_readback"],
        summary: `set ${described} to ${after}`,
      }
      : await judged(witness, {
        ...base,
        effect: "unverifiable",
        summary: `asked to set ${described} to ${number}; it reads ${after}`,
      }, { changed: "unverifiable" });
  }
  throw new DriverError("invalid_arguments", `${described} has no text or value to set`, {
    field: "element_token",
    hint: "pick an editable field, slider, spin button or combo box; use click for buttons",
  });
}

async function selectOption(
  ctx: ToolContext,
  target: Extract<ActionTarget, { scope: "window" }>,
  combo: SnapshotElement,
  value: string,
): Promise<Outcome> {
  const tree = await ctx.backend.accessibility.tree(target.pid, target.windowId, {
    maxNodes: 5000,
    maxDepth: 256,
  }, ctx.signal);
  const comboIndex = tree.nodes.findIndex((n) => sameRef(n.ref, combo.ref));
  const isInside = (i: number) => {
    for (let p = tree.nodes[i].parent; p >= 0; p = tree.nodes[p].parent) if (p === comboIndex) return true;
    return false;
  };
  const options = tree.nodes.map((n, i) => ({ n, i })).filter(({ n, i }) =>
    comboIndex >= 0 && isInside(i) && n.name
  );
  const match = options.filter(({ n }) => n.name === value);
  if (match.length !== 1) {
    throw new DriverError(
      "invalid_arguments",
      match.length
        ? `Several options of combo box ${JSON.stringify(combo.label)} are named "${value}"`
        : `Combo box ${JSON.stringify(combo.label)} has no option "${value}"`,
      {
        field: "value",
        hint: `options: ${[...new Set(options.map(({ n }) => n.name))].slice(0, 30).join(", ")}`,
      },
    );
  }
  const option = match[0].n;
  const witness = await Witness.observe(ctx, { pid: target.pid, windowId: target.windowId }, [combo.ref]);
  const action = await activationAction(ctx, option.ref);
  if (!action || !(await ctx.backend.accessibility.doAction(option.ref, action))) {
    throw new DriverError(
      "delivery_failed",
      `The option "${value}" cannot be activated through accessibility`,
      {
        hint: "open the combo box with click and pick the option by pixel",
      },
    );
  }
  witness.sent();
  // The combo shows the choice as its name or value, or the option reports itself selected.
  const { changed } = await waitForChange(async () => {
    const [state, chosen] = await Promise.all([
      ctx.backend.accessibility.tree(
        target.pid,
        target.windowId,
        { maxNodes: 5000, maxDepth: 256 },
        ctx.signal,
      ),
      ctx.backend.accessibility.state(option.ref).then((s) => s.selected || s.checked, () => false),
    ]);
    const node = state.nodes.find((n) => sameRef(n.ref, combo.ref));
    return chosen || node?.name === value || node?.value === value;
  }, false);
  return await judged(witness, {
    route: "accessibility",
    mode: "background",
    deliveredCount: 1,
    effect: changed ? "confirmed" : "unverifiable",
    ...(changed ? { evidence: ["value_readback" as const] } : {}),
    summary: `selected "${value}" in combo box ${JSON.stringify(combo.label)}`,
  });
}
