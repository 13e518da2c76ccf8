/**
 * A back end whose every operation refuses with `unsupported_platform`: the
 * honest answer on an OS whose implementation has not landed yet.
 *
 * @module
 */
import { DriverError } from "../ports/errors.ts";
import type { Backend } from "../ports/backend.ts";
import type { SystemBackend } from "../ports/system.ts";

function refusal(os: string, planned: string, what: string): DriverError {
  return new DriverError("unsupported_platform", `${what} is not implemented on ${os} yet`, {
    platform: os,
    hint: `${planned}; use a Linux X11 desktop for now`,
  });
}

/** A system facility for `os` whose asynchronous operations refuse; the synchronous ones answer safely. */
export function unsupportedSystem(os: "darwin" | "windows", planned: string): SystemBackend {
  const refuse = (what: string) => () => Promise.reject(refusal(os, planned, `system.${what}`));
  return {
    findExecutable: refuse("findExecutable"),
    run: refuse("run"),
    spawn: refuse("spawn"),
    processExecutable: () => Promise.resolve(null),
    processCommandLine: () => Promise.resolve(null),
    ownsTcpListener: () => Promise.resolve(null),
    isElevated: () => false,
    ownedByUser: () => Promise.resolve(null),
    classifyDirectory: () => "other",
    cacheDir: () => {
      throw refusal(os, planned, "system.cacheDir");
    },
    monotonicMs: () => Math.round(performance.now()),
    packages: null,
    sockets: {
      defaultAddress: () => {
        throw refusal(os, planned, "system.sockets");
      },
      listen: refuse("sockets.listen"),
      connect: refuse("sockets.connect"),
      exists: () => false,
    },
  };
}

/** Builds a back end for `os` that refuses every call with a structured error. */
export function unsupportedBackend(os: "darwin" | "windows", planned: string): Backend {
  const refuse = (what: string) => () => Promise.reject(refusal(os, planned, what));
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
    system: unsupportedSystem(os, planned),
    agentCursor: {
      unavailableReason: () => Promise.resolve(`the agent cursor overlay is not implemented on ${os} yet`),
      draw: () => {},
      hide: () => {},
      remove: () => {},
    },
    permissions: refuse("permissions"),
    health: refuse("health"),
    close: () => Promise.resolve(),
  };
}
