/**
 * Holding modifier keys around a pointer gesture, released even when the
 * gesture fails halfway.
 *
 * @module
 */
import type { InputChannel } from "../ports/input.ts";
import { DriverError } from "../ports/errors.ts";
import type { ToolContext } from "../kernel/tool.ts";

/**
 * Runs `body` with `modifiers` held on the channel's keyboard. On the background
 * channel the private keyboard is pointed at `windowId` meanwhile.
 */
export async function heldModifiers<T>(
  ctx: ToolContext,
  channel: InputChannel,
  modifiers: readonly string[],
  body: () => Promise<T>,
  windowId?: number,
): Promise<T> {
  if (modifiers.length === 0) return await body();
  const keyboard = await ctx.input.keyboard(channel);
  const run = async () => {
    const down: string[] = [];
    try {
      for (const modifier of modifiers) {
        down.push(modifier);
        await keyboard.down(modifier);
      }
      return await body();
    } finally {
      for (const modifier of down.reverse()) await keyboard.up(modifier).catch(() => {});
    }
  };
  return channel === "background" && windowId !== undefined
    ? await ctx.backend.input.withBackgroundKeyboard(windowId, run)
    : await run();
}

const MODIFIER_ALIASES: Record<string, string> = {
  ctrl: "ctrl",
  control: "ctrl",
  shift: "shift",
  alt: "alt",
  option: "alt",
  super: "super",
  meta: "super",
  win: "super",
  windows: "super",
  cmd: "super",
  command: "super",
};

/**
 * Canonical modifier names (ctrl, shift, alt, super).
 *
 * @throws {DriverError} `invalid_arguments` naming an unknown modifier.
 */
export function parseModifiers(names: readonly string[]): string[] {
  const out: string[] = [];
  for (const name of names) {
    const canonical = MODIFIER_ALIASES[name.trim().toLowerCase()];
    if (!canonical) {
      throw new DriverError("invalid_arguments", `Unknown modifier "${name}"`, {
        field: "modifier",
        hint: "use ctrl, shift, alt or super",
      });
    }
    if (!out.includes(canonical)) out.push(canonical);
  }
  return out;
}
