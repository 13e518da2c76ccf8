/**
 * `cua-driver osworld-server`: the HTTP server OSWorld's desktop environment talks to inside its
 * guest (desktop_env/controllers/python.py), answered by the driver's own capture, accessibility,
 * input and recorder through the registry. Loopback by default; every request needs the bearer
 * token and a Host naming this listener. `/execute` and `/run_python` take the pyautogui subset
 * (pyautogui.ts), parsed and never run by Python or a shell; anything else is refused with
 * nothing run.
 *
 * Endpoints: GET /screenshot (PNG), GET /accessibility ({"AT": xml}), POST /execute
 * ({"command": ["python", "-c", script]}), POST /run_python ({"code"}), POST /computer_13
 * ({action_type, parameters} or a list of them), POST /screen_size, GET /platform,
 * POST /start_recording, POST /end_recording (the MP4), and with `--files-root` POST /file and
 * POST /setup/upload inside that folder (files.ts).
 *
 * @module
 */
import type { CallOptions, ToolHost } from "../../kernel/registry.ts";
import { fromBase64 } from "../../kernel/result.ts";
import { BearerAuth, hostAllowed } from "../network/auth.ts";
import { accessibilityXml } from "./accessibility_xml.ts";
import { FileRefusal, readConfined, writeConfined } from "./files.ts";
import { computer13ToPy, pyCallToDriver, runMapped, UnsupportedActionError } from "./actions.ts";
import { parsePyautogui, PyautoguiSyntaxError, type PyCall } from "./pyautogui.ts";

/** Where and how to listen. */
export interface OsworldServerOptions {
  host: string;
  port: number;
  token: string;
  /** The platform name `/platform` answers (OSWorld's `platform.system()`). */
  platform: string;
  /** The folder /file and /setup/upload may read and write (null: they refuse). */
  filesRoot: string | null;
  signal?: AbortSignal;
}

/** A running server. */
export interface OsworldServer {
  readonly url: string;
  readonly finished: Promise<void>;
  close(): Promise<void>;
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

/** OSWorld's reply to a refused command (nothing ran). */
function refused(message: string): Response {
  return json({ status: "error", message, output: "", error: message, returncode: 1 }, 400);
}

/** The script of an /execute body: `python -c <script>` only, never through a shell. */
function scriptOf(body: Record<string, unknown>): string {
  if (body.shell === true) throw new UnsupportedActionError("shell commands are not run");
  const command = body.command;
  if (
    !Array.isArray(command) || command.length !== 3 || !/^python3?$/.test(String(command[0])) ||
    command[1] !== "-c" || typeof command[2] !== "string"
  ) {
    throw new UnsupportedActionError('only ["python", "-c", <pyautogui script>] is run');
  }
  return command[2];
}

/** Parses and maps a whole script before any of it runs. */
function plan(calls: PyCall[]) {
  return calls.map(pyCallToDriver);
}

/** Starts the server on the host (a registry or a daemon client). */
export function startOsworldServer(host: ToolHost, options: OsworldServerOptions): OsworldServer {
  const auth = new BearerAuth(options.token);
  const call: CallOptions = { lease: `osworld-${crypto.randomUUID()}`, transport: "mcp_http" };
  let recording: string | null = null;

  async function runPlans(plans: ReturnType<typeof plan>): Promise<Response> {
    const outcome = await runMapped(host, plans, call);
    if (outcome.failed) {
      const message = `${outcome.failed.tool} failed (${outcome.failed.code}): ${outcome.failed.message}`;
      return json({ status: "error", message, output: "", error: message, returncode: 1 }, 500);
    }
    return json({ status: "success", output: "", error: "", returncode: 0 });
  }

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (!hostAllowed(request.headers.get("host") ?? undefined, options.host, options.port)) {
      return json({ status: "error", message: "Host not allowed" }, 403);
    }
    if (!auth.check(request.headers.get("authorization"))) {
      return json({ status: "error", message: "missing or wrong bearer token" }, 401);
    }
    const route = `${request.method} ${url.pathname}`;
    const body = async () => {
      try {
        return (await request.json()) as Record<string, unknown>;
      } catch {
        throw new UnsupportedActionError("the body must be JSON");
      }
    };
    try {
      switch (route) {
        case "GET /screenshot": {
          const shot = await host.call("computer_screenshot", {}, call);
          const image = shot.content.find((part) => part.type === "image");
          if (shot.isError || !image || image.type !== "image") {
            return json({ status: "error", message: "capture failed" }, 500);
          }
          return new Response(fromBase64(image.data) as Uint8Array<ArrayBuffer>, {
            headers: { "content-type": "image/png" },
          });
        }
        case "GET /accessibility":
          return json({ AT: await accessibilityXml(host, call) });
        case "POST /screen_size": {
          const size = await host.call("get_screen_size", {}, call);
          const s = size.structuredContent as { width: number; height: number };
          return json({ width: s.width, height: s.height });
        }
        case "GET /platform":
          return new Response(options.platform);
        case "POST /execute":
          return await runPlans(plan(parsePyautogui(scriptOf(await body()))));
        case "POST /run_python": {
          const code = (await body()).code;
          if (typeof code !== "string") throw new UnsupportedActionError('the body needs "code"');
          return await runPlans(plan(parsePyautogui(code)));
        }
        case "POST /computer_13": {
          const given = await body();
          const actions = Array.isArray(given) ? given : [given];
          const calls = actions.map(computer13ToPy).filter((c): c is PyCall => c !== null);
          return await runPlans(plan(calls));
        }
        case "POST /file": {
          const form = await request.formData();
          const bytes = await readConfined(options.filesRoot, form.get("file_path"));
          return new Response(bytes as Uint8Array<ArrayBuffer>, {
            headers: { "content-type": "application/octet-stream" },
          });
        }
        case "POST /setup/upload": {
          const form = await request.formData();
          const file = form.get("file_data");
          if (!(file instanceof File)) throw new FileRefusal(400, "file_data must be a file");
          await writeConfined(
            options.filesRoot,
            form.get("file_path"),
            new Uint8Array(await file.arrayBuffer()),
          );
          return new Response("File uploaded");
        }
        case "POST /start_recording": {
          if (recording) return json({ status: "error", message: "a recording is already running" }, 400);
          const dir = await Deno.makeTempDir({ prefix: "cua-osworld-recording-" });
          const started = await host.call("start_recording", { output_dir: dir, record_video: true }, call);
          if (started.isError) {
            return json({ status: "error", message: String(started.structuredContent?.message) }, 500);
          }
          recording = dir;
          return json({ status: "success", message: "Started recording." });
        }
        case "POST /end_recording": {
          if (!recording) return json({ status: "error", message: "no recording is running" }, 400);
          const dir = recording;
          recording = null;
          const stopped = await host.call("stop_recording", {}, call);
          if (stopped.isError) {
            return json({ status: "error", message: String(stopped.structuredContent?.message) }, 500);
          }
          const video = await Deno.readFile(`${dir}/recording.mp4`).catch(() => null);
          await Deno.remove(dir, { recursive: true }).catch(() => {});
          if (!video) return json({ status: "error", message: "the recording has no video" }, 500);
          return new Response(video, { headers: { "content-type": "video/mp4" } });
        }
      }
      return json({ status: "error", message: `no endpoint ${route}` }, 404);
    } catch (error) {
      if (error instanceof FileRefusal) {
        return json({ status: "error", message: error.message }, error.status);
      }
      if (error instanceof PyautoguiSyntaxError || error instanceof UnsupportedActionError) {
        return refused(`refused, nothing was run: ${error.message}`);
      }
      throw error;
    }
  }

  const server = Deno.serve({
    hostname: options.host,
    port: options.port,
    signal: options.signal,
    onListen: () => {},
    onError: (error) =>
      json({ status: "error", message: `internal error: ${(error as Error).message}` }, 500),
  }, handle);
  const address = server.addr as Deno.NetAddr;
  return {
    url: `http://${
      address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname
    }:${address.port}`,
    finished: server.finished,
    async close() {
      await server.shutdown();
    },
  };
}
