/**
 * A back end that can exist before its desktop does. A server (`mcp`, `serve`) started
 * without a reachable display still answers initialize, tools/list and the diagnostic
 * tools; every other tool is refused with `display_unavailable` and the remedy, and the
 * first call after the display appears connects to it.
 *
 * @module
 */
import type { Backend } from "../ports/backend.ts";
import type { HealthCheck, PermissionCheck } from "../ports/health.ts";
import { asDriverError, DriverError } from "../ports/errors.ts";

/** What a deferred back end needs from the platform. */
export interface DeferredBackendOptions {
  os: Backend["os"];
  /** The system facility, which needs no desktop. */
  system: Backend["system"];
  /** Starts the real back end; throws `display_unavailable` while there is no desktop. */
  start(): Promise<Backend>;
  /** The error the first start attempt failed with. */
  initialError: DriverError;
  /** The permission checks that run without a desktop (each unreachable facility a failed check). */
  offlinePermissions(): Promise<PermissionCheck[]>;
  log?: (line: string) => void;
}

type Part =
  | "screen"
  | "windows"
  | "apps"
  | "accessibility"
  | "clipboard"
  | "input"
  | "agentCursor"
  | "perception";

/**
 * Wraps a platform back end that could not start yet. {@linkcode Backend.ready} connects
 * (or refuses); the parts forward to the real back end once it is there.
 */
export function deferredBackend(options: DeferredBackendOptions): Backend {
  let real: Backend | null = null;
  let lastError: DriverError = options.initialError;
  let starting: Promise<Backend> | null = null;
  let closed = false;

  const attempt = (): Promise<Backend> => {
    if (real) return Promise.resolve(real);
    starting ??= options.start().then((backend) => {
      if (closed) {
        void backend.close();
        throw lastError;
      }
      real = backend;
      options.log?.(`desktop is up: ${backend.description}`);
      return backend;
    }, (error) => {
      lastError = withRemedy(asDriverError(error));
      throw lastError;
    }).finally(() => {
      starting = null;
    });
    return starting;
  };

  // Parts read synchronously (gRPC helpers, agent cursor) refuse while there is no desktop
  // and start a connection attempt, so the next call finds the desktop when it came up.
  const part = (name: Part) =>
    new Proxy({}, {
      get(_target, key) {
        if (!real) {
          attempt().catch(() => {});
          throw lastError;
        }
        const target = real[name] as unknown as Record<PropertyKey, unknown> | undefined;
        if (target === undefined) return undefined;
        const value = target[key];
        return typeof value === "function" ? value.bind(target) : value;
      },
    });

  return {
    os: options.os,
    get description() {
      return real?.description ?? `no desktop yet (${lastError.message})`;
    },
    screen: part("screen") as Backend["screen"],
    windows: part("windows") as Backend["windows"],
    apps: part("apps") as Backend["apps"],
    accessibility: part("accessibility") as Backend["accessibility"],
    clipboard: part("clipboard") as Backend["clipboard"],
    input: part("input") as Backend["input"],
    agentCursor: part("agentCursor") as Backend["agentCursor"],
    system: options.system,
    get perception() {
      return real ? real.perception : part("perception") as Backend["perception"];
    },
    async ready() {
      // An attempt already in flight may have begun before the desktop appeared (a part read
      // in the background): this call waits for it, and makes its own attempt if it failed.
      if (starting) await starting.catch(() => {});
      await attempt();
    },
    async permissions(): Promise<PermissionCheck[]> {
      const backend = await attempt().catch(() => null);
      return backend ? await backend.permissions() : await options.offlinePermissions();
    },
    async health(names: readonly string[]): Promise<HealthCheck[]> {
      const backend = await attempt().catch(() => null);
      if (backend) return await backend.health(names);
      return names.map((name) =>
        name === "display"
          ? { name, status: "fail" as const, message: lastError.message, hint: hintOf(lastError) }
          : { name, status: "skip" as const, message: "Not checked: no desktop is reachable yet" }
      );
    },
    async close() {
      closed = true;
      await starting?.catch(() => {});
      await real?.close();
    },
  };
}

function hintOf(error: DriverError): string {
  return String(error.data.hint ?? "start the X session, or run cua-driver with --desktop embedded");
}

/** Every refusal says the server keeps waiting, so the agent knows a retry can work. */
function withRemedy(error: DriverError): DriverError {
  if (error.code !== "display_unavailable") return error;
  const hint = `${
    hintOf(error)
  }; the server keeps running and uses the desktop on the first call after it appears`;
  return new DriverError(error.code, error.message, { ...error.data, hint }, { cause: error });
}
