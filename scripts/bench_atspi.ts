/**
 * Benchmarks the AT-SPI tree build against a live desktop.
 *
 * Prints the median of 20 builds of one window's tree (with the phase split), then
 * the cost of one pipelined GetExtents per showing node of that tree through this
 * client (bus and peer-to-peer) and through npm:dbus-next (bus).
 *
 * Usage: deno run -A scripts/bench_atspi.ts <pid> [x,y,width,height] [runs]
 *
 * Needs DISPLAY-independent AT-SPI only: DBUS_SESSION_BUS_ADDRESS must point at the
 * session whose accessibility bus the app uses.
 *
 * @module
 */
// Only this benchmark uses dbus-next, as the baseline; it stays out of the import map.
// deno-lint-ignore no-import-prefix
import dbusNext from "npm:dbus-next@0.10.2";
import { AtspiAccessibility, type WindowTreeTimings } from "../src/backends/linux/accessibility.ts";
import { DBusConnection } from "../src/lib/dbus/mod.ts";

const pid = Number(Deno.args[0]);
if (!pid) {
  console.error("usage: bench_atspi.ts <pid> [x,y,width,height] [runs]");
  Deno.exit(2);
}
const [x, y, width, height] = (Deno.args[1] ?? "0,0,0,0").split(",").map(Number);
const bounds = width > 0 ? { x, y, width, height } : null;
const runs = Number(Deno.args[2] ?? 20);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timeIt(n: number, run: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await run();
    out.push(performance.now() - t);
  }
  return out;
}

const ax = new AtspiAccessibility({ windowBounds: () => Promise.resolve(bounds) });
const limits = { maxNodes: 5000, maxDepth: 64 };
const cold = performance.now();
let tree = await ax.tree(pid, 0, limits, new AbortController().signal);
console.log(`first build (connect + peer setup): ${(performance.now() - cold).toFixed(1)} ms`);
if (tree.error) {
  console.error(tree.error);
  Deno.exit(1);
}
const phases: Partial<WindowTreeTimings>[] = [];
const totals = await timeIt(runs, async () => {
  tree = await ax.tree(pid, 0, limits, new AbortController().signal);
  phases.push(ax.lastTimings);
});
const phase = (key: "locate" | "items" | "match" | "supplement" | "details") =>
  median(phases.map((p) => p[key] ?? 0));
console.log(
  `tree: ${tree.nodes.length} nodes, ${tree.nodes.filter((n) => n.frame).length} frames, ` +
    `${phases.at(-1)?.stats?.calls} detail calls, source ${phases.at(-1)?.source}`,
);
console.log(
  `tree build median ${median(totals).toFixed(2)} ms (min ${
    Math.min(...totals).toFixed(2)
  }) over ${runs} runs: ` +
    `locate app ${phase("locate").toFixed(2)}, GetItems ${phase("items").toFixed(2)}, window match ${
      phase("match").toFixed(2)
    }, ` +
    `supplement with details in flight ${phase("supplement").toFixed(2)}, ` +
    `remaining extents/actions/values ${phase("details").toFixed(2)}`,
);
await ax.close();

// The same GetExtents calls, alone.
const refs = tree.nodes.filter((n) => n.showing && n.interfaces.includes("component"))
  .map((n) => n.ref as { bus: string; path: string });
const app = refs[0]?.bus;
const session = await DBusConnection.connect(Deno.env.get("DBUS_SESSION_BUS_ADDRESS")!);
const [a11yAddress] = await session.call({
  destination: "org.a11y.Bus",
  path: "/org/a11y/bus",
  interface: "org.a11y.Bus",
  member: "GetAddress",
});
const a11y = await DBusConnection.connect(a11yAddress as string);
const extents = (conn: DBusConnection, destination?: string) =>
  Promise.all(refs.map((r) =>
    conn.call({
      destination,
      path: r.path,
      interface: "org.a11y.atspi.Component",
      member: "GetExtents",
      signature: "u",
      body: [0],
    })
  ));
await extents(a11y, app);
console.log(
  `${refs.length} GetExtents, this client via bus: median ${
    median(await timeIt(runs, () => extents(a11y, app))).toFixed(2)
  } ms`,
);
const [peerAddress] = await a11y.call({
  destination: app,
  path: "/org/a11y/atspi/accessible/root",
  interface: "org.a11y.atspi.Application",
  member: "GetApplicationBusAddress",
}).catch(() => [""]);
if (peerAddress) {
  const peer = await DBusConnection.connect(peerAddress as string, { bus: false });
  await extents(peer);
  console.log(
    `${refs.length} GetExtents, this client peer-to-peer: median ${
      median(await timeIt(runs, () => extents(peer))).toFixed(2)
    } ms`,
  );
  await peer.close();
}
await a11y.close();
await session.close();

const next = dbusNext.sessionBus({ busAddress: a11yAddress as string });
const nextExtents = () =>
  Promise.all(refs.map((r) =>
    next.call(
      new dbusNext.Message({
        destination: app,
        path: r.path,
        interface: "org.a11y.atspi.Component",
        member: "GetExtents",
        signature: "u",
        body: [0],
      }),
    )
  ));
await nextExtents();
console.log(
  `${refs.length} GetExtents, npm:dbus-next via bus: median ${
    median(await timeIt(runs, nextExtents)).toFixed(2)
  } ms`,
);
next.disconnect();
