/**
 * launch_app cannot be turned into a shell, a process killer or a DevTools opener, in
 * bounded or standard mode, through any transport (MCP stdio, MCP HTTP, gRPC CallTool,
 * the daemon socket, and the `cua-driver call` CLI for the issue's own attacks). Each attack is judged by what the system shows afterwards: the marker
 * file a shell would have created does not exist, the foreign process still runs, and
 * no new process of the attack's program appeared.
 */
import assert from "node:assert/strict";
import { startAllTransports } from "../_helpers/all_transports.ts";
import { desktopEnv, e2eRequired, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { startFixture } from "../_helpers/fixture_app.ts";
import { hasGrpcJs } from "../_helpers/grpc_node_client.ts";
import { type Attack, cliTransport, expectAllRefused, withWitness } from "./_escape_kit.ts";

const ignore = ignoreWithoutDesktop() || (!hasGrpcJs() && !e2eRequired());

Deno.test({
  name: "launch_app in bounded mode runs only the manifest's program, whatever the string says",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withWitness(async (dir, marker, victim) => {
      const manifest = `${dir}/manifest.yaml`;
      await Deno.writeTextFile(
        manifest,
        `version: 3
expires_after: 1h
idle_timeout: 30m
allow:
  tools: [launch_app, get_screen_size, list_windows, get_accessibility_tree, list_apps]
resources:
  apps:
    - executable: sleep
      launch: true
`,
      );
      // Things an attacker might find on disk: links and entries that look like the allowed program.
      await Deno.symlink("/bin/sh", `${dir}/sleep`);
      await Deno.writeTextFile(
        `${dir}/sleep.desktop`,
        `[Desktop Entry]\nType=Application\nName=sleep\nExec=/usr/bin/touch ${marker}\n`,
      );
      await Deno.writeTextFile(
        `${dir}/shell.desktop`,
        `[Desktop Entry]\nType=Application\nName=shell\nExec=/bin/sh -c "touch ${marker}"\n`,
      );
      const touch = `touch ${marker}`;
      const attacks: Attack[] = [
        {
          label: "shell string ending in the allowed name",
          args: { launch_path: `/bin/sh -c "${touch}" /usr/bin/sleep` },
        },
        { label: "the same as name", args: { name: `/bin/sh -c "${touch}" sleep` } },
        {
          label: "shell with an argument array",
          args: { launch_path: "/bin/sh", additional_arguments: ["-c", touch] },
        },
        { label: "allowed name first, shell after", args: { launch_path: `sleep 1; ${touch}` } },
        { label: "leading whitespace", args: { launch_path: `  /bin/sh -c "${touch}" sleep` } },
        {
          label: "symlink named like the allowed program",
          args: { launch_path: `${dir}/sleep`, additional_arguments: ["-c", touch] },
        },
        {
          label: "desktop file whose Exec is another program",
          args: { launch_path: `${dir}/sleep.desktop` },
        },
        { label: "desktop file whose Exec is a shell", args: { launch_path: `${dir}/shell.desktop` } },
        { label: "env wrapper", args: { launch_path: "env", additional_arguments: ["sleep", "1"] } },
        { label: "kill", args: { launch_path: "kill", additional_arguments: ["-9", String(victim)] } },
        { label: "urls through xdg-open", args: { urls: [`file://${dir}/shell.desktop`] } },
      ];
      await using all = await startAllTransports([
        "--permission-mode",
        "bounded",
        "--capability-manifest",
        manifest,
        "--approve-capability-manifest",
      ]);
      const tried = await expectAllRefused(all.transports, attacks, { marker, victim });
      assert.equal(tried, attacks.length * 4);
      await expectAllRefused([cliTransport(all)], attacks.slice(0, 3), { marker, victim });

      // Bounded mode shows nothing outside the manifest: a GTK app running on the desktop
      // (its pid and its window title) is in no listing, through any transport.
      await using outsider = await startFixture(desktopEnv(), { title: "Outside the manifest 7341" });
      for (const transport of all.transports) {
        for (const tool of ["list_windows", "get_accessibility_tree", "list_apps"]) {
          const result = await transport.call(tool, {});
          const shown = JSON.stringify(result.structured);
          assert.equal(result.isError, false, `${transport.name} ${tool}: ${shown.slice(0, 300)}`);
          assert.doesNotMatch(shown, /Outside the manifest 7341/, `${transport.name} ${tool} leaks a title`);
          assert.doesNotMatch(
            shown,
            new RegExp(`"pid":${outsider.pid}\\b`),
            `${transport.name} ${tool} leaks a pid`,
          );
        }
      }

      // The program the manifest names does launch, through every transport.
      for (const transport of all.transports) {
        const result = await transport.call("launch_app", {
          launch_path: "sleep",
          additional_arguments: ["600"],
        });
        assert.equal(result.isError, false, `${transport.name}: ${JSON.stringify(result.structured)}`);
        const pid = result.structured.pid as number;
        assert.deepEqual(
          (await Deno.readTextFile(`/proc/${pid}/cmdline`)).split("\0").slice(0, 2),
          [Deno.realPathSync("/bin/sleep"), "600"],
        );
        Deno.kill(pid, "SIGKILL");
      }
    });
  },
});

Deno.test({
  name:
    "launch_app in standard mode refuses kill, shells, wrappers and DevTools flags however they are spelt",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withWitness(async (dir, marker, victim, pattern) => {
      await Deno.symlink("/bin/kill", `${dir}/gedit`);
      await Deno.symlink("/usr/bin/time", `${dir}/galculator`);
      const kill = `kill -9 ${victim}`;
      const attacks: Attack[] = [
        {
          label: "kill by name",
          args: { launch_path: "kill", additional_arguments: ["-9", String(victim)] },
        },
        {
          label: "kill by path",
          args: { launch_path: "/bin/kill", additional_arguments: ["-9", String(victim)] },
        },
        { label: "kill as a command line", args: { launch_path: kill } },
        {
          label: "kill through a link named like an app",
          args: { launch_path: `${dir}/gedit`, additional_arguments: ["-9", String(victim)] },
        },
        { label: "pkill", args: { launch_path: "pkill", additional_arguments: ["-9", "-f", pattern] } },
        {
          label: "sh -c",
          args: { launch_path: "sh", additional_arguments: ["-c", `${kill}; touch ${marker}`] },
        },
        { label: "bash -c", args: { launch_path: "/bin/bash", additional_arguments: ["-c", kill] } },
        {
          label: "env",
          args: { launch_path: "/usr/bin/env", additional_arguments: ["kill", "-9", String(victim)] },
        },
        { label: "xargs", args: { launch_path: "xargs", additional_arguments: ["kill", "-9"] } },
        {
          label: "timeout",
          args: { launch_path: "timeout", additional_arguments: ["5", "kill", "-9", String(victim)] },
        },
        {
          label: "python -c",
          args: { launch_path: "python3", additional_arguments: ["-c", `import os; os.kill(${victim}, 9)`] },
        },
        {
          label: "debugging flag",
          args: { launch_path: "sleep", additional_arguments: ["--remote-debugging-port=9222"] },
        },
        {
          label: "debugging flag, leading space",
          args: { launch_path: "sleep", additional_arguments: [" --remote-debugging-port=9222"] },
        },
        {
          label: "debugging flag, upper case",
          args: { launch_path: "sleep", additional_arguments: ["--REMOTE-DEBUGGING-PIPE"] },
        },
        {
          label: "debugging flag inside sh -c",
          args: { launch_path: "sh", additional_arguments: ["-c", "chromium --remote-debugging-port=9222"] },
        },
        {
          label: "debugging flag as a URL",
          args: { launch_path: "sleep", urls: ["--remote-debugging-port=9222"] },
        },
        { label: "debugging flag as the only URL", args: { urls: [" --remote-debugging-port=9222"] } },
        // Issue 24: wrappers that run the program in their arguments, and tools that run hooks.
        {
          label: "time kill",
          args: { launch_path: "/usr/bin/time", additional_arguments: ["kill", "-9", String(victim)] },
        },
        {
          label: "setpriv kill",
          args: { launch_path: "setpriv", additional_arguments: ["kill", "-9", String(victim)] },
        },
        {
          label: "prlimit sh -c",
          args: { launch_path: "prlimit", additional_arguments: ["/bin/sh", "-c", `touch ${marker}`] },
        },
        {
          label: "git alias",
          args: { launch_path: "git", additional_arguments: ["-c", `alias.x=!touch ${marker}`, "x"] },
        },
        {
          label: "git alias starting a browser with a DevTools port",
          args: {
            launch_path: "git",
            additional_arguments: [
              "-c",
              `alias.b=!touch ${marker}; chromium --remote-debugging-port=9339`,
              "b",
            ],
          },
        },
        {
          label: "tar checkpoint action",
          args: {
            launch_path: "tar",
            additional_arguments: [
              "--checkpoint=1",
              `--checkpoint-action=exec=touch ${marker}`,
              "-cf",
              "/dev/null",
              "/etc/hostname",
            ],
          },
        },
        {
          label: "time through a link named like an app",
          args: { launch_path: `${dir}/galculator`, additional_arguments: ["kill", "-9", String(victim)] },
        },
      ];
      await using all = await startAllTransports([]);
      const tried = await expectAllRefused(all.transports, attacks, { marker, victim });
      assert.equal(tried, attacks.length * 4);
      const issueAttacks = attacks.filter((a) =>
        /^(kill by name|sh -c|debugging flag, leading space|time kill|git alias)$/.test(a.label)
      );
      await expectAllRefused([cliTransport(all)], issueAttacks, { marker, victim });
    });
  },
});
