/**
 * Binds every symbol of every macOS framework table on a real Mac (the `macos-native`
 * job of .github/workflows/platforms.yml; ignored elsewhere). The back end binds symbols
 * lazily, one on first use, so without this a misspelt or missing symbol would surface
 * only when a user first reaches its path: every non-optional symbol must bind, and each
 * optional one (private SPI, newer API) is reported present or absent.
 *
 * @module
 */
import assert from "node:assert/strict";
import { FRAMEWORK_TABLES, systemFrameworks } from "../../src/backends/darwin/frameworks.ts";
import { cell, record } from "./_report.ts";

const ignore = Deno.build.os !== "darwin";

Deno.test({
  name: "darwin frameworks: every non-optional symbol of every table binds; optional ones are reported",
  ignore,
  // The framework libraries opened here stay open for the process (as in the driver).
  sanitizeResources: false,
  async fn() {
    await cell("bind every framework symbol", () => {
      const frameworks = systemFrameworks() as unknown as Record<string, Record<string, unknown>>;
      const missing: string[] = [];
      const optional: Record<string, boolean> = {};
      let bound = 0;
      for (const [name, table] of Object.entries(FRAMEWORK_TABLES)) {
        let symbols: Record<string, unknown>;
        try {
          symbols = frameworks[name];
        } catch (error) {
          missing.push(`${name}: the library does not open (${(error as Error).message})`);
          continue;
        }
        for (const [symbol, definition] of Object.entries(table as Deno.ForeignLibraryInterface)) {
          const isOptional = "optional" in definition && definition.optional === true;
          let value: unknown;
          try {
            value = symbols[symbol];
          } catch (error) {
            missing.push(`${name}.${symbol}: ${(error as Error).message}`);
            continue;
          }
          if (isOptional) optional[`${name}.${symbol}`] = value !== null;
          else if (value === null || value === undefined) missing.push(`${name}.${symbol}: bound to nothing`);
          else bound++;
        }
      }
      record({ cell: "optional symbols present", status: "passed", detail: JSON.stringify(optional) });
      assert.deepEqual(missing, [], `symbols that did not bind:\n${missing.join("\n")}`);
      assert.ok(bound > 100, `bound ${bound} symbols`);
    });
  },
});

Deno.test({
  name: "darwin frameworks: Deno runs this test on the process's main thread (the run loop's)",
  ignore,
  // The framework libraries opened here stay open for the process (as in the driver).
  sanitizeResources: false,
  async fn() {
    await cell("main thread", () => {
      assert.equal(systemFrameworks().system.pthread_main_np(), 1);
    });
  },
});
