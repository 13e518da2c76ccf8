/**
 * Paths a caller names cannot reach outside their grant or freeze the driver, through any
 * transport: symlinks (as the file, or as a directory on the way) are judged by where they
 * lead, FIFOs and devices are refused without blocking, and nothing is written through a
 * link. Judged by the files themselves: the outside file keeps its content, no file
 * appears outside, and the driver answers the next call.
 */
import assert from "node:assert/strict";
import { startAllTransports, type Transport } from "../_helpers/all_transports.ts";
import { e2eRequired, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { hasGrpcJs } from "../_helpers/grpc_node_client.ts";

const ignore = ignoreWithoutDesktop() || (!hasGrpcJs() && !e2eRequired());

interface Layout {
  grant: string;
  outside: string;
  victim: string;
}

async function layout(root: string): Promise<Layout> {
  const grant = `${root}/grant`, outside = `${root}/outside`;
  await Deno.mkdir(grant);
  await Deno.mkdir(outside);
  const victim = `${outside}/victim.txt`;
  await Deno.writeTextFile(victim, "precious");
  await Deno.symlink(victim, `${grant}/link.png`);
  await Deno.symlink(outside, `${grant}/dirlink`);
  await new Deno.Command("mkfifo", { args: [`${grant}/fifo.png`] }).output();
  await Deno.mkdir(`${grant}/old-recording`);
  await Deno.writeTextFile(`${grant}/old-recording/session.json`, "{}");
  return { grant, outside, victim };
}

async function outsideUntouched(where: Layout, label: string): Promise<void> {
  assert.equal(await Deno.readTextFile(where.victim), "precious", `${label}: the outside file changed`);
  const names = [];
  for await (const entry of Deno.readDir(where.outside)) names.push(entry.name);
  assert.deepEqual(names, ["victim.txt"], `${label}: a file appeared outside the grant`);
}

async function expectRefused(
  transport: Transport,
  where: Layout,
  tool: string,
  args: Record<string, unknown>,
  codes: string[],
): Promise<void> {
  const label = `${transport.name}: ${tool} ${JSON.stringify(args)}`;
  const result = await transport.call(tool, args);
  assert.equal(result.isError, true, `${label}: ${JSON.stringify(result.structured)}`);
  assert.ok(codes.includes(String(result.structured.code)), `${label}: ${JSON.stringify(result.structured)}`);
  await outsideUntouched(where, label);
  // The driver still serves: nothing blocked on a FIFO.
  const size = await transport.call("get_screen_size", {});
  assert.equal(size.isError, false, `${label}: the driver stopped answering`);
}

Deno.test({
  name: "caller paths in bounded mode stay inside their grant after every link is resolved",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "cua-path-escape-" });
    try {
      const where = await layout(root);
      const manifest = `${root}/manifest.yaml`;
      await Deno.writeTextFile(
        manifest,
        `version: 3
expires_after: 1h
idle_timeout: 30m
allow:
  tools: [get_desktop_state, get_screen_size, clipboard_write, start_recording, stop_recording]
resources:
  desktop: { display: true }
  files:
    write: [{ dir: ${where.grant} }]
    read: [{ dir: ${where.grant} }]
`,
      );
      await using all = await startAllTransports([
        "--permission-mode",
        "bounded",
        "--capability-manifest",
        manifest,
        "--approve-capability-manifest",
      ]);
      const outside = ["bounded_resource_outside_manifest"];
      for (const transport of all.transports) {
        const shot = (file: string) => ({ screenshot_out_file: file });
        await expectRefused(transport, where, "get_desktop_state", shot(`${where.grant}/link.png`), outside);
        await expectRefused(
          transport,
          where,
          "get_desktop_state",
          shot(`${where.grant}/dirlink/new.png`),
          outside,
        );
        await expectRefused(
          transport,
          where,
          "get_desktop_state",
          shot(`${where.grant}/../outside/n.png`),
          outside,
        );
        await expectRefused(transport, where, "get_desktop_state", shot("/proc/self/fd/1"), outside);
        await expectRefused(transport, where, "get_desktop_state", shot("/dev/stdout"), outside);
        await expectRefused(transport, where, "get_desktop_state", shot(`${where.grant}/fifo.png`), [
          "file_error",
        ]);
        await expectRefused(
          transport,
          where,
          "clipboard_write",
          { image_path: `${where.grant}/link.png` },
          outside,
        );
        await expectRefused(transport, where, "clipboard_write", { image_path: `${where.grant}/fifo.png` }, [
          "file_error",
        ]);
        await expectRefused(
          transport,
          where,
          "start_recording",
          { output_dir: `${where.grant}/dirlink/rec` },
          outside,
        );
        await expectRefused(transport, where, "start_recording", {
          output_dir: `${where.grant}/old-recording`,
        }, [
          "invalid_arguments",
        ]);
      }
      assert.equal(await Deno.readTextFile(`${where.grant}/old-recording/session.json`), "{}");
      // Inside the grant, through its real path, a screenshot is written.
      const ok = await all.transports[0].call("get_desktop_state", {
        screenshot_out_file: `${where.grant}/ok.png`,
      });
      assert.equal(ok.isError, false, JSON.stringify(ok.structured));
      const png = await Deno.readFile(`${where.grant}/ok.png`);
      assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47]);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "caller paths in standard mode are never written through a link or opened as a FIFO",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "cua-path-standard-" });
    try {
      const where = await layout(root);
      await using all = await startAllTransports([]);
      for (const transport of all.transports) {
        for (
          const file of [
            `${where.grant}/link.png`,
            `${where.grant}/fifo.png`,
            "/proc/self/fd/1",
            "/dev/stdout",
          ]
        ) {
          await expectRefused(transport, where, "get_desktop_state", { screenshot_out_file: file }, [
            "file_error",
          ]);
        }
        await expectRefused(transport, where, "clipboard_write", { image_path: `${where.grant}/fifo.png` }, [
          "file_error",
        ]);
      }
      // The issue's own report through the daemon CLI.
      const cli = await all.cli("get_desktop_state", { screenshot_out_file: `${where.grant}/fifo.png` });
      assert.equal(cli.isError, true);
      assert.equal(cli.structured.code, "file_error");
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
