/**
 * ComputerService.Keyboard: type → type_text (keystrokes, or with
 * TEXT_ENTRY_MODE_INSERT an accessibility insert into the window's focused element,
 * found with get_window_state), press → press_key (repeated), hotkey → hotkey.
 * Key down and up without release are not supported (FEATURE_UNSUPPORTED).
 *
 * @module
 */
import { create } from "@bufbuild/protobuf";
import type { ErrorEnvelope } from "../../../ports/errors.ts";
import { Code } from "@connectrpc/connect";
import type { WindowInfo } from "../../../ports/windows.ts";
import { deliver, type DeliveryMode, deliveryPlan, type InputScope, type ToolCall } from "./delivery.ts";
import { durationMs } from "./driver_service.ts";
import { readActiveWindow } from "./geometry.ts";
import { fromDriverFailure, invalid, rpcError, unsupported } from "./errors.ts";
import { Delivery, ErrorReason } from "./gen/cua/env/v1/common_pb.ts";
import {
  type KeyboardRequest,
  type KeyboardResponse,
  KeyboardResponseSchema,
  type KeyboardType,
  TextEntryMode,
} from "./gen/cua/env/v1/computer_pb.ts";
import { hotkeyNames, keyInputName, modifierNames } from "./keys.ts";
import { targetArgs } from "./tool_args.ts";

/** Most presses one KeyboardPress may ask for. */
const MAX_REPEAT = 100;

/** Performs one keyboard action on `window` (null: the focused window, through the user's keyboard). */
export async function performKeyboard(
  scope: InputScope,
  window: WindowInfo | null,
  request: KeyboardRequest,
): Promise<KeyboardResponse> {
  const plan = deliveryPlan(request.target?.delivery ?? 0, window);
  const action = request.action;
  switch (action.case) {
    case "type":
      return respond(await typeText(scope, window, plan, action.value));
    case "press": {
      const key = keyInputName(action.value.key, "press.key");
      const modifiers = modifierNames(action.value.modifiers, "press.modifiers");
      const repeat = Math.max(1, action.value.repeat);
      if (repeat > MAX_REPEAT) throw invalid(`press.repeat must be at most ${MAX_REPEAT}`, "press.repeat");
      const call = (mode: DeliveryMode): ToolCall => ({
        tool: "press_key",
        args: { ...targetArgs(mode, window), key, ...(modifiers.length ? { modifiers } : {}) },
      });
      let report = await deliver(scope, plan, call);
      // Later presses use the mode the first one landed with.
      const used: DeliveryMode = plan[0] === "desktop"
        ? "desktop"
        : report.delivery === Delivery.FOREGROUND
        ? "foreground"
        : "background";
      for (let i = 1; i < repeat; i++) report = await deliver(scope, [used], call);
      return respond(report);
    }
    case "hotkey": {
      if (action.value.keys.length === 0) throw invalid("hotkey.keys needs at least one key", "hotkey.keys");
      const names = hotkeyNames(action.value.keys, "hotkey.keys");
      const call = (mode: DeliveryMode): ToolCall =>
        names.length === 1
          ? {
            tool: "press_key",
            args: { ...targetArgs(mode, window), key: keyInputName(action.value.keys[0], "hotkey.keys[0]") },
          }
          : { tool: "hotkey", args: { ...targetArgs(mode, window), keys: names } };
      return respond(await deliver(scope, plan, call));
    }
    case "down":
    case "up":
      throw unsupported(
        `keyboard.${action.case}`,
        `Key ${action.case} without release is not supported; use press or hotkey`,
      );
    default:
      throw invalid("Keyboard needs an action (type, press or hotkey)", "action");
  }
}

function respond(report: KeyboardResponse["report"]): KeyboardResponse {
  return create(KeyboardResponseSchema, { report });
}

async function typeText(
  scope: InputScope,
  window: WindowInfo | null,
  plan: DeliveryMode[],
  value: KeyboardType,
) {
  if (value.text === "") throw invalid("type.text must not be empty", "type.text");
  const delayMs = value.delay ? Math.round(durationMs(value.delay, "type.delay")) : undefined;
  if (delayMs !== undefined && delayMs > 1000) throw invalid("type.delay must be at most 1 s", "type.delay");
  if (value.mode === TextEntryMode.UNSPECIFIED || value.mode === TextEntryMode.KEYSTROKES) {
    return await deliver(scope, plan, (mode) => ({
      tool: "type_text",
      args: {
        ...targetArgs(mode, window),
        text: value.text,
        ...(delayMs !== undefined ? { delay_ms: delayMs } : {}),
      },
    }));
  }
  if (value.mode !== TextEntryMode.INSERT) {
    throw invalid(`Unknown text entry mode ${value.mode}`, "type.mode");
  }
  const into = window ?? await activeWindow(scope);
  const token = await focusedElementToken(scope, into);
  return await deliver(scope, window ? plan : deliveryPlan(0, into), (mode) => ({
    tool: "type_text",
    args: {
      ...targetArgs(mode === "desktop" ? "background" : mode, into),
      element_token: token,
      text: value.text,
    },
  }));
}

async function activeWindow(scope: InputScope): Promise<WindowInfo> {
  const window = await readActiveWindow(scope);
  if (!window) {
    throw rpcError(
      Code.FailedPrecondition,
      ErrorReason.TARGET_UNAVAILABLE,
      "No active window to insert text into",
      {
        metadata: { hint: "set target.window" },
      },
    );
  }
  return window;
}

/** The element_token of the window's focused element, from a fresh tree (no screenshot). */
async function focusedElementToken(scope: InputScope, window: WindowInfo): Promise<string> {
  const result = await scope.registry.call("get_window_state", {
    pid: window.pid ?? 0,
    window_id: window.windowId,
    include_screenshot: false,
  }, { lease: scope.lease, transport: "grpc", signal: scope.signal });
  if (result.isError) throw fromDriverFailure(result.structuredContent as ErrorEnvelope | undefined);
  const elements = (result.structuredContent?.elements ?? []) as {
    element_token: string;
    focused?: boolean;
  }[];
  const focused = elements.findLast((element) => element.focused);
  if (!focused) {
    throw rpcError(
      Code.FailedPrecondition,
      ErrorReason.TARGET_UNAVAILABLE,
      `Window ${window.windowId} has no focused element to insert text into`,
      { metadata: { hint: "click the field first, or use TEXT_ENTRY_MODE_KEYSTROKES" } },
    );
  }
  return focused.element_token;
}
