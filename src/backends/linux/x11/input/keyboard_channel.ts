/**
 * Adapts the X11 keyboard to the {@linkcode RawKeyboard} interface for one
 * channel: the core keyboard (foreground, desktop) or the agent master's
 * XTEST keyboard (background). One X11Keyboard serves both channels of a
 * connection, so they share the spare keycodes.
 *
 * @module
 */
import { DriverError } from "../../../../ports/errors.ts";
import type { RawKeyboard } from "../../../../ports/input.ts";
import type { AgentMaster } from "./agent_master.ts";
import { CORE_KEYBOARD, deviceKeyboard, type KeyboardChannel, type X11Keyboard } from "./keyboard.ts";

/** Creates the keyboard of a channel: the core keyboard when `agent` is null. */
export function createKeyboard(
  keyboard: X11Keyboard,
  agent: AgentMaster | null,
): RawKeyboard & { channel: KeyboardChannel } {
  const channel = agent ? deviceKeyboard(agent.keyboardDevice, agent.keyboardId) : CORE_KEYBOARD;
  return {
    channel,
    press: (key, modifiers) => keyboard.press(channel, key, [...modifiers] as never),
    down: (key) => keyboard.down(channel, key),
    up: async (key) => {
      await keyboard.up(channel, key);
    },
    async typeText(text, delayMs, signal) {
      const result = await keyboard.typeText(channel, text, { delayMs, signal });
      if (result.delivered === 0 && result.missing.length) {
        throw new DriverError(
          "delivery_failed",
          `No key produces ${result.missing.map((c) => JSON.stringify(c)).join(", ")}`,
          {
            hint: "insert the text through the field's element_token instead",
          },
        );
      }
      return result.delivered;
    },
    releaseAll: () => keyboard.releaseAll(channel),
  };
}
