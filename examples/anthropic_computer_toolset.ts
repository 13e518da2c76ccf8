/**
 * The Anthropic SDK's abstract computer toolset (`BetaAbstractComputerToolset20260801` from
 * `@anthropic-ai/sdk/helpers/beta/toolsets`) implemented with cua-driver behind it: every member
 * is one call of `cua-driver mcp --tools anthropic` over MCP stdio. The driver speaks the
 * toolset's coordinates (pixels of the full screenshot, a size fixed for the session) and its
 * fixed error phrases; a pure action returns the driver's one line saying what it read back.
 *
 * Use it with the SDK's tool runner, or answer `tool_use` blocks by hand:
 *
 * ```ts
 * const computer = await CuaDriverComputerToolset.connect({ confirm: () => true });
 * const block = await computer.toolResult(toolUse); // a tool_result for the model
 * await computer.close();
 * ```
 *
 * Run it (`deno run -A examples/anthropic_computer_toolset.ts`) to take one screenshot and print
 * its size and the cursor's position.
 *
 * @module
 */
import {
  BetaAbstractComputerToolset20260801,
  type BetaComputerConfirmCallable,
  type BetaScreenshotResult,
  type BetaToolsetCallContext,
  ToolError,
} from "@anthropic-ai/sdk/helpers/beta/toolsets";
import type {
  BetaComputerDoubleClickInput,
  BetaComputerHoldKeyInput,
  BetaComputerKeyInput,
  BetaComputerLeftClickDragInput,
  BetaComputerLeftClickInput,
  BetaComputerMiddleClickInput,
  BetaComputerMouseMoveInput,
  BetaComputerRightClickInput,
  BetaComputerScrollInput,
  BetaComputerTripleClickInput,
  BetaComputerTypeInput,
  BetaComputerWaitInput,
  BetaComputerZoomInput,
} from "@anthropic-ai/sdk/resources/beta";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

/** How to start the driver and approve the calls that type. */
export interface ConnectOptions {
  /** The driver command (default `cua-driver`) and its arguments before `mcp --tools anthropic`. */
  command?: string;
  args?: string[];
  /** The driver's environment (default: this process's). */
  env?: Record<string, string>;
  /** The SDK's approval hook, required while `type`, `key` and `hold_key` are enabled. */
  confirm: BetaComputerConfirmCallable;
}

type Content = { type: string; text?: string; data?: string; mimeType?: string };

/** The computer toolset, each member answered by cua-driver. */
export class CuaDriverComputerToolset extends BetaAbstractComputerToolset20260801 {
  readonly #client: Client;

  private constructor(client: Client, confirm: BetaComputerConfirmCallable) {
    super({ confirm });
    this.#client = client;
  }

  /** Starts `cua-driver mcp --tools anthropic` and connects to it. */
  static async connect(options: ConnectOptions): Promise<CuaDriverComputerToolset> {
    const transport = new StdioClientTransport({
      command: options.command ?? "cua-driver",
      args: [...(options.args ?? []), "mcp", "--tools", "anthropic"],
      env: options.env,
      stderr: "ignore",
    });
    const client = new Client({ name: "cua-driver-computer-toolset", version: "1.0.0" });
    await client.connect(transport);
    return new CuaDriverComputerToolset(client, options.confirm);
  }

  /** The member names the driver serves (its tools/list). */
  async served(): Promise<string[]> {
    return (await this.#client.listTools()).tools.map((tool: { name: string }) => tool.name);
  }

  /** The MCP instructions the driver sent (what its coordinates mean). */
  instructions(): string | undefined {
    return this.#client.getInstructions();
  }

  /** Closes the toolset, then the driver. */
  override async close(): Promise<void> {
    await super.close();
    await this.#client.close();
  }

  /** One member call; a driver error becomes the SDK's `ToolError` with the driver's fixed phrase. */
  async #call(name: string, input: object): Promise<Content[]> {
    const result = await this.#client.callTool({ name, arguments: { ...input } });
    const content = result.content as Content[];
    const text = content.filter((part) => part.type === "text").map((part) => part.text).join(" ");
    if (result.isError) throw new ToolError(text);
    return content;
  }

  async #line(name: string, input: object): Promise<string> {
    return (await this.#call(name, input)).find((part) => part.type === "text")?.text ?? "";
  }

  async #image(name: string, input: object): Promise<BetaScreenshotResult> {
    const image = (await this.#call(name, input)).find((part) => part.type === "image");
    if (!image?.data) throw new ToolError("The screen could not be captured.");
    return { data: image.data, mediaType: image.mimeType as BetaScreenshotResult["mediaType"] };
  }

  protected override key(_ctx: BetaToolsetCallContext, input: BetaComputerKeyInput) {
    return this.#line("key", input);
  }
  protected override hold_key(_ctx: BetaToolsetCallContext, input: BetaComputerHoldKeyInput) {
    return this.#line("hold_key", input);
  }
  protected override type_(_ctx: BetaToolsetCallContext, input: BetaComputerTypeInput) {
    return this.#line("type", input);
  }
  protected override async cursor_position() {
    const result = await this.#client.callTool({ name: "cursor_position", arguments: {} });
    if (result.isError) throw new ToolError("The action failed.");
    return result.structuredContent as { x: number; y: number };
  }
  protected override mouse_move(_ctx: BetaToolsetCallContext, input: BetaComputerMouseMoveInput) {
    return this.#line("mouse_move", input);
  }
  protected override left_mouse_down() {
    return this.#line("left_mouse_down", {});
  }
  protected override left_mouse_up() {
    return this.#line("left_mouse_up", {});
  }
  protected override left_click(_ctx: BetaToolsetCallContext, input: BetaComputerLeftClickInput) {
    return this.#line("left_click", input);
  }
  protected override left_click_drag(_ctx: BetaToolsetCallContext, input: BetaComputerLeftClickDragInput) {
    return this.#line("left_click_drag", input);
  }
  protected override right_click(_ctx: BetaToolsetCallContext, input: BetaComputerRightClickInput) {
    return this.#line("right_click", input);
  }
  protected override middle_click(_ctx: BetaToolsetCallContext, input: BetaComputerMiddleClickInput) {
    return this.#line("middle_click", input);
  }
  protected override double_click(_ctx: BetaToolsetCallContext, input: BetaComputerDoubleClickInput) {
    return this.#line("double_click", input);
  }
  protected override triple_click(_ctx: BetaToolsetCallContext, input: BetaComputerTripleClickInput) {
    return this.#line("triple_click", input);
  }
  protected override scroll(_ctx: BetaToolsetCallContext, input: BetaComputerScrollInput) {
    return this.#line("scroll", input);
  }
  protected override async wait(_ctx: BetaToolsetCallContext, input: BetaComputerWaitInput) {
    await this.#call("wait", input);
  }
  protected override screenshot() {
    return this.#image("screenshot", {});
  }
  protected override zoom(_ctx: BetaToolsetCallContext, input: BetaComputerZoomInput) {
    return this.#image("zoom", input);
  }
}

if (import.meta.main) {
  const computer = await CuaDriverComputerToolset.connect({ confirm: () => true });
  try {
    const shot = await computer.toolResult(
      { type: "tool_use", id: "toolu_1", name: "screenshot", input: {}, toolset_name: "computer" } as never,
    );
    const cursor = await computer.toolResult(
      {
        type: "tool_use",
        id: "toolu_2",
        name: "cursor_position",
        input: {},
        toolset_name: "computer",
      } as never,
    );
    console.log(JSON.stringify({ screenshot: shot.content, cursor: cursor.content }).slice(0, 400));
  } finally {
    await computer.close();
  }
}
