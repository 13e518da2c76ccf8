/**
 * cua.env.v1.DriverService: the tool registry over gRPC. ListTools is the MCP
 * tools/list catalog with schemas as JSON text; CallTool is the same
 * `registry.call` as MCP tools/call. Tool failures are `is_error` results; gRPC
 * errors mean the call could not be dispatched (unknown tool, bad JSON, timeout).
 *
 * @module
 */
import { create } from "@bufbuild/protobuf";
import type { Duration } from "@bufbuild/protobuf/wkt";
import { Code, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import { CONTRACT_VERSION, type ToolRegistry } from "../../../kernel/registry.ts";
import { fromBase64, type ToolResult } from "../../../kernel/result.ts";
import { leaseOf } from "./context.ts";
import { invalid, rpcError } from "./errors.ts";
import { ErrorReason } from "./gen/cua/env/v1/common_pb.ts";
import {
  type CallToolResponse,
  CallToolResponseSchema,
  type DriverService,
  type ToolContent,
  ToolContentSchema,
  ToolInfoSchema,
} from "./gen/cua/env/v1/driver_pb.ts";

/** Longest CallTool timeout accepted (one hour). */
const MAX_TIMEOUT_MS = 3_600_000;

/** Builds the DriverService implementation over a registry. */
export function driverService(registry: ToolRegistry): ServiceImpl<typeof DriverService> {
  return {
    listTools() {
      const tools = registry.list().map((tool) =>
        create(ToolInfoSchema, {
          name: tool.name,
          description: tool.description,
          inputSchemaJson: JSON.stringify(tool.inputSchema),
          outputSchemaJson: tool.outputSchema ? JSON.stringify(tool.outputSchema) : "",
          // The compact listing leaves default hints out; the full one has them all.
          readOnly: registry.fullListing(tool.name)!.annotations?.readOnlyHint,
          destructive: registry.fullListing(tool.name)!.annotations?.destructiveHint,
        })
      );
      return { tools, contractVersion: CONTRACT_VERSION };
    },
    async callTool(request, ctx) {
      if (request.name === "") throw invalid("name is required", "name");
      if (!registry.get(request.name)) {
        throw rpcError(Code.NotFound, ErrorReason.UNSPECIFIED, `Unknown tool "${request.name}"`, {
          metadata: { tool: request.name, hint: "call ListTools for the tool names" },
        });
      }
      const args = parseArguments(request.argumentsJson);
      const timeoutMs = request.timeout ? durationMs(request.timeout, "timeout") : undefined;
      const result = await callWithTimeout(registry, request.name, args, ctx, timeoutMs);
      return toResponse(result);
    },
  };
}

/** Parses `arguments_json`; empty means {}. */
function parseArguments(text: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid(`arguments_json is not valid JSON: ${(error as Error).message}`, "arguments_json");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalid("arguments_json must be a JSON object", "arguments_json");
  }
  return value as Record<string, unknown>;
}

/**
 * A Duration in milliseconds.
 *
 * @throws {ConnectError} INVALID_ARGUMENT for a negative, zero or absurd duration.
 */
export function durationMs(duration: Duration, field: string): number {
  const ms = Number(duration.seconds) * 1000 + duration.nanos / 1e6;
  if (!Number.isFinite(ms) || ms <= 0 || ms > MAX_TIMEOUT_MS) {
    throw invalid(`${field} must be between 0 and ${MAX_TIMEOUT_MS / 1000} s`, field);
  }
  return ms;
}

/** Runs one tool call; the timeout aborts the call and fails the RPC with DEADLINE_EXCEEDED. */
async function callWithTimeout(
  registry: ToolRegistry,
  name: string,
  args: Record<string, unknown>,
  ctx: HandlerContext,
  timeoutMs: number | undefined,
): Promise<ToolResult> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(ctx.signal.reason);
  ctx.signal.addEventListener("abort", onAbort);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    if (timeoutMs === undefined) return;
    timer = setTimeout(() => {
      controller.abort(new DOMException("CallTool timeout", "TimeoutError"));
      reject(
        rpcError(
          Code.DeadlineExceeded,
          ErrorReason.UNSPECIFIED,
          `Tool "${name}" timed out after ${timeoutMs} ms`,
        ),
      );
    }, timeoutMs);
  });
  try {
    const call = registry.call(name, args, {
      lease: leaseOf(ctx),
      transport: "grpc",
      signal: controller.signal,
    });
    return await Promise.race([call, expired]);
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort);
  }
}

/** Maps an MCP CallTool result to the protobuf response. */
export function toResponse(result: ToolResult): CallToolResponse {
  const content: ToolContent[] = result.content.map((part) => {
    if (part.type === "text") {
      return create(ToolContentSchema, { content: { case: "text", value: part.text } });
    }
    if (part.type === "image") {
      return create(ToolContentSchema, {
        content: { case: "image", value: { data: fromBase64(part.data), mimeType: part.mimeType } },
      });
    }
    return create(ToolContentSchema, { content: { case: "json", value: JSON.stringify(part) } });
  });
  return create(CallToolResponseSchema, {
    content,
    structuredJson: result.structuredContent === undefined ? "" : JSON.stringify(result.structuredContent),
    isError: result.isError === true,
  });
}
