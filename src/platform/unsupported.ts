/**
 * A back end whose every operation refuses with `unsupported_platform`: the
 * honest answer on an OS whose implementation has not landed yet.
 *
 * @module
 */
import { DriverError } from "../core/errors.ts";
import type { Backend } from "./types.ts";

/** Builds a back end for `os` that refuses every call with a structured error. */
export function unsupportedBackend(os: "darwin" | "windows", planned: string): Backend {
  const refuse = (what: string) => () =>
    Promise.reject(
      new DriverError("unsupported_platform", `${what} is not implemented on ${os} yet`, {
        platform: os,
        hint: `${planned}; use a Linux X11 desktop for now`,
      }),
    );
  const facility = (area: string) =>
    new Proxy({}, { get: (_target, property) => refuse(`${area}.${String(property)}`) });
  return {
    os,
    description: `${os} (not implemented)`,
    screen: facility("screen") as Backend["screen"],
    windows: facility("windows") as Backend["windows"],
    apps: facility("apps") as Backend["apps"],
    accessibility: facility("accessibility") as Backend["accessibility"],
    clipboard: facility("clipboard") as Backend["clipboard"],
    input: facility("input") as Backend["input"],
    agentCursor: {
      unavailableReason: () => `the agent cursor overlay is not implemented on ${os} yet`,
      draw: () => {},
      hide: () => {},
      remove: () => {},
    },
    permissions: refuse("permissions"),
    health: refuse("health"),
    close: () => Promise.resolve(),
  };
}
