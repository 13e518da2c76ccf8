/**
 * Unit-test helpers for the accessibility tools: a registry over the fake back end with
 * one window, and trees written as nested objects.
 *
 * @module
 */
import { ConfigStore } from "../../src/kernel/config.ts";
import { ToolRegistry } from "../../src/kernel/registry.ts";
import type { ToolResult } from "../../src/kernel/result.ts";
import { RuntimeState } from "../../src/kernel/runtime_state.ts";
import type { AnyTool } from "../../src/kernel/tool.ts";
import { FakeBackend, fakeNode } from "../../src/backends/fake/mod.ts";
import type { AxNode, AxRole, AxTree } from "../../src/ports/accessibility.ts";

/** The fake window every kit has. */
export const PID = 4242;
export const WINDOW = 77;

/** A node of a tree spec: an AxNode's fields plus its children. */
export type NodeSpec = Partial<AxNode> & { role: AxRole; children?: NodeSpec[] };

/** Flattens a nested spec into a pre-order AxTree with parent links and depths. */
export function treeOf(root: NodeSpec, extra: Partial<AxTree> = {}): AxTree {
  const nodes: AxNode[] = [];
  const visit = (spec: NodeSpec, depth: number, parent: number) => {
    const { children = [], ...fields } = spec;
    const index = nodes.push(fakeNode({ ...fields, depth, parent })) - 1;
    for (const child of children) visit(child, depth + 1, index);
  };
  visit(root, 0, -1);
  return { nodes, truncated: false, error: null, ...extra };
}

/** A registry over a fake back end with window {@linkcode WINDOW} of pid {@linkcode PID}. */
export function toolKit(tools: readonly AnyTool[]) {
  const fake = new FakeBackend();
  fake.addWindow({ windowId: WINDOW, pid: PID, bounds: { x: 100, y: 100, width: 400, height: 300 } });
  const state = new RuntimeState(new ConfigStore("/nonexistent/config.json"));
  const registry = new ToolRegistry(tools, fake, state);
  return {
    fake,
    state,
    registry,
    call(name: string, args: Record<string, unknown>): Promise<ToolResult> {
      return registry.call(name, args, { lease: "test", transport: "cli" });
    },
    /** Serves `next()` as the window's tree on every read. */
    serveTrees(next: () => AxTree): void {
      fake.accessibility.tree = (_pid: number, _windowId: number) => {
        fake.calls.push("accessibility.tree");
        return Promise.resolve(next());
      };
    },
  };
}

/** The text of a result. */
export function textOf(result: ToolResult): string {
  return result.content.flatMap((part) => part.type === "text" ? [part.text] : []).join("\n");
}
