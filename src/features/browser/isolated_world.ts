/**
 * The driver's own JavaScript world in a tab's main frame (`Page.createIsolatedWorld`):
 * it shares the page's DOM but not its globals, so what the driver keeps there (the
 * current snapshot's elements) is out of the page scripts' reach. One world per document,
 * created on first use; a navigation destroys it and the next call creates another.
 *
 * @module
 */
import { CdpError } from "../../lib/devtools/cdp_client.ts";

/** What the world needs of its tab. */
export interface WorldHost {
  // deno-lint-ignore no-explicit-any
  send<T = any>(method: string, params?: Record<string, unknown>, timeoutMs?: number): Promise<T>;
}

/** The page threw while evaluating the driver's script. */
export class PageScriptError extends Error {
  override name = "PageScriptError";
}

const WORLD_NAME = "cua-driver";

/** One tab's isolated world. */
export class IsolatedWorld {
  readonly #host: WorldHost;
  #context: Promise<{ id: number; loaderId: string }> | null = null;

  constructor(host: WorldHost) {
    this.#host = host;
  }

  /**
   * Evaluates `expression` in the world and returns its value (JSON-serialisable) with the
   * loader of the document it ran in.
   *
   * @throws {PageScriptError} when the script throws; CDP errors pass through.
   */
  async evaluate(expression: string): Promise<{ value: unknown; loaderId: string }> {
    const { reply, loaderId } = await this.#evaluate(expression, true);
    return { value: reply.result.value, loaderId };
  }

  /**
   * Evaluates `expression` in the world and returns a remote object id for its value
   * (null for null or undefined); the caller releases it.
   *
   * @throws {PageScriptError} when the script throws; CDP errors pass through.
   */
  async object(expression: string): Promise<string | null> {
    const { reply } = await this.#evaluate(expression, false);
    return reply.result.objectId ?? null;
  }

  async #evaluate(
    expression: string,
    returnByValue: boolean,
  ): Promise<{ reply: { result: { value?: unknown; objectId?: string } }; loaderId: string }> {
    for (let attempt = 0;; attempt++) {
      const context = await this.#contextOnce();
      try {
        // deno-lint-ignore no-explicit-any
        const reply = await this.#host.send<any>("Runtime.evaluate", {
          expression,
          contextId: context.id,
          returnByValue,
          awaitPromise: false,
        });
        if (reply.exceptionDetails) {
          const detail = reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text;
          throw new PageScriptError(`The driver's page script failed: ${detail}`);
        }
        return { reply, loaderId: context.loaderId };
      } catch (error) {
        // The document went away with the world: make a world in the new one, once.
        const gone = error instanceof CdpError && /Cannot find context|context with specified id/i.test(
          error.message,
        );
        if (!gone || attempt > 0) throw error;
        this.#context = null;
      }
    }
  }

  #contextOnce(): Promise<{ id: number; loaderId: string }> {
    this.#context ??= this.#create();
    this.#context.catch(() => (this.#context = null));
    return this.#context;
  }

  async #create(): Promise<{ id: number; loaderId: string }> {
    const { frameTree } = await this.#host.send("Page.getFrameTree");
    const { executionContextId } = await this.#host.send("Page.createIsolatedWorld", {
      frameId: frameTree.frame.id,
      worldName: WORLD_NAME,
      grantUniveralAccess: false,
    });
    return { id: executionContextId, loaderId: frameTree.frame.loaderId };
  }
}
