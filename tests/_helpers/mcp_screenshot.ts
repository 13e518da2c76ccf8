/**
 * One check shared by the tests that prove a way of starting the driver (offline, bundled,
 * through the launcher): a stdio MCP client asks it for the tools and a desktop screenshot,
 * and the screenshot must show the colour the GTK3 fixture paints, where ImageMagick reads
 * the same colour on the screen.
 *
 * @module
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { decodePng } from "../../src/lib/image/png.ts";
import { desktopEnv } from "./desktop_env.ts";
import { startFixture } from "./fixture_app.ts";
import { parseColour, pixelAt, sameColour, screenPixel, windowBox } from "./x11_probe.ts";

/** What the server answered, for further checks. */
export interface McpScreenshotAnswer {
  serverName: string;
  toolNames: string[];
}

/**
 * Starts `command args` as a stdio MCP server with exactly `env`, lists its tools, and checks
 * its `get_desktop_state` screenshot against a fixture window painted in `swatch`.
 */
export async function assertMcpScreenshot(
  command: string,
  args: string[],
  env: Record<string, string>,
  options: { cwd?: string; swatch?: string; title: string },
): Promise<McpScreenshotAnswer> {
  await using app = await startFixture(desktopEnv(), {
    title: options.title,
    x: 140,
    y: 120,
    swatch: options.swatch ?? "#2e8b57",
  });
  const client = new Client({ name: "cua-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command, args, env, cwd: options.cwd, stderr: "inherit" }));
  try {
    const { tools } = await client.listTools();
    const shot = await client.callTool({ name: "get_desktop_state", arguments: {} });
    assert.equal(shot.isError, undefined, JSON.stringify(shot.content).slice(0, 500));
    const structured = shot.structuredContent as { windows: { title: string }[] };
    assert.ok(structured.windows.some((w) => w.title === app.title), "the fixture is among the windows");
    const image = (shot.content as { type: string; data?: string }[]).find((part) => part.type === "image");
    assert.ok(image?.data, "a PNG came back");
    const png = decodePng(Uint8Array.from(atob(image.data), (c) => c.charCodeAt(0)));

    const box = await windowBox(app.xid);
    const swatch = app.widgets.swatch;
    assert.ok(swatch, "the fixture reported its swatch");
    const at = { x: box.x + swatch.x + swatch.width / 2, y: box.y + swatch.y + swatch.height / 2 };
    const expected = parseColour(app.swatch);
    const seen = pixelAt(png, at.x, at.y);
    assert.ok(
      sameColour(seen, expected),
      `screenshot shows the swatch ${app.swatch} at ${at.x},${at.y}: ${seen}`,
    );
    assert.ok(sameColour(seen, await screenPixel(at.x, at.y)), "ImageMagick reads the same pixel");
    return {
      serverName: client.getServerVersion()?.name ?? "",
      toolNames: tools.map((t: { name: string }) => t.name),
    };
  } finally {
    await client.close();
  }
}
