/**
 * Observations through the driver, the way an agent takes them: get_window_state of a
 * window, then element tokens and screenshot pixels from it.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Structured } from "../_helpers/in_process_driver.ts";
import type { WinWorld } from "./world.ts";

/** A get_window_state result with helpers. */
export interface WinView {
  pid: number;
  windowId: number;
  state: Structured;
  element(match: (e: Structured) => boolean): Structured;
  token(match: (e: Structured) => boolean): string;
  /** The screenshot pixel at fractions of an element's frame. */
  pixel(match: (e: Structured) => boolean, fx?: number, fy?: number): { x: number; y: number };
}

/** Observes `windowId` of `pid` through get_window_state. */
export async function observe(world: WinWorld, pid: number, windowId: number): Promise<WinView> {
  const state = await world.driver.ok("get_window_state", { pid, window_id: windowId });
  const elements = (state.elements ?? []) as Structured[];
  const bounds = state.bounds as { x: number; y: number };
  const scale = Number(state.screenshot_scale ?? 1);
  const element = (match: (e: Structured) => boolean) => {
    const found = elements.find(match);
    assert.ok(found, `no matching element in ${JSON.stringify(elements.map((e) => [e.role, e.label]))}`);
    return found;
  };
  return {
    pid,
    windowId,
    state,
    element,
    token: (match) => element(match).element_token,
    pixel: (match, fx = 0.5, fy = 0.5) => {
      const f = element(match).frame;
      return {
        x: Math.round((f.x + f.w * fx - bounds.x) * scale),
        y: Math.round((f.y + f.h * fy - bounds.y) * scale),
      };
    },
  };
}

/** The target of notepad's main window. */
export function notepadTarget(world: WinWorld): { pid: number; window_id: number } {
  return { pid: world.notepad.pid, window_id: world.notepad.windowId };
}

/** The target of the Find dialog. */
export function findTarget(world: WinWorld): { pid: number; window_id: number } {
  return { pid: world.notepad.pid, window_id: world.find };
}

/** Label matchers. */
export const is = {
  matchCase: (e: Structured) => /match case/i.test(e.label),
  up: (e: Structured) => e.role === "RadioButton" && /^up$/i.test(e.label),
  edit: (e: Structured) => e.role === "Edit",
};
