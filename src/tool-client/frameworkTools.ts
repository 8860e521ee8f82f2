/**
 * A tool server's tools as the tools of an agent framework: framework-neutral
 * definitions (`toolDefinitions`) and the Vercel AI SDK's (`asVercelTools`).
 * `ToolClient` offers both as methods.
 */
import { contentHash } from "./replay";
import type { InvokeOptions, InvokeResult, JsonSchema, ListToolsOptions, ToolDescriptor } from "./types";

/** What the framework tools need of a client (`ToolClient` is one): its tools, and a way to invoke one. */
export interface ToolInvoker {
  listTools(options: ListToolsOptions): Promise<ToolDescriptor[]>;
  invoke(name: string, args: Record<string, unknown>, options: InvokeOptions): Promise<InvokeResult>;
}

/** Which tools become framework tools, and the run their calls belong to. */
export interface FrameworkToolOptions {
  /** Only tools with any of these tags. */
  tags?: string[] | undefined;
  /** The run every call belongs to (sent as `run_id`). */
  runId?: string | undefined;
  /** Sent as `thread_id`. */
  threadId?: string | undefined;
  /** Aborts listing the tools. */
  signal?: AbortSignal | undefined;
}

/** @deprecated `FrameworkToolOptions` under its first name, which read as `CarbonAgUiAdapter`'s options. */
export type AdapterOptions = FrameworkToolOptions;

/** What a tool call gives a framework: the tool's result, or `{ pending_approval: approval_id }` while it waits for a reviewer. */
export type ToolOutcome<T = unknown> = T | { pending_approval: string };

/** A tool for any agent framework. */
export interface ToolDefinition {
  name: string;
  description: string;
  /** The arguments' JSON Schema. */
  inputSchema: JsonSchema;
  requiresApproval: boolean;
  /**
   * Invokes the tool: its result, or `{ pending_approval: approval_id }` while a reviewer decides.
   * Pass the framework's own id of the tool call as `idempotencyKey` (any string: it is made a valid key),
   * so running the same call again replays its answer instead of running the tool twice.
   */
  execute(args: Record<string, unknown>, options?: { signal?: AbortSignal | undefined; idempotencyKey?: string | undefined }): Promise<ToolOutcome>;
}

/** What the Vercel AI SDK's `tool()` is given (`inputSchema` for AI SDK 5, `parameters` for 4). */
export interface VercelToolSpec<TSchema = unknown> {
  description: string;
  inputSchema: TSchema;
  parameters: TSchema;
  /** The SDK passes its `toolCallId`: the call's `Idempotency-Key` is made from it, so a re-executed call does not run the tool twice. */
  execute(args: Record<string, unknown>, options?: { abortSignal?: AbortSignal | undefined; toolCallId?: string | undefined }): Promise<ToolOutcome>;
}

/**
 * The SDK's `tool` function. Typed loosely on purpose: its overloads (and
 * their differences between AI SDK 4 and 5) would not match a precise
 * signature; the SDK checks the spec itself.
 */
export type VercelToolFactory<TTool> = (spec: any) => TTool;

/** The tools as framework-neutral definitions whose `execute` invokes the tool in `options.runId`. */
export async function toolDefinitions(client: ToolInvoker, options: FrameworkToolOptions): Promise<ToolDefinition[]> {
  const { tags, runId, threadId, signal } = options;
  const tools = await client.listTools({ tags, signal });
  return tools.map((descriptor) => ({
    name: descriptor.name,
    description: descriptor.description,
    inputSchema: descriptor.input_schema,
    requiresApproval: descriptor.requires_approval,
    async execute(args, callOptions) {
      const idempotencyKey = callOptions?.idempotencyKey === undefined ? undefined : keyForToolCall(callOptions.idempotencyKey);
      const call = await client.invoke(descriptor.name, args, { runId, threadId, signal: callOptions?.signal, idempotencyKey });
      return call.status === "ok" ? call.result : { pending_approval: call.approval_id };
    },
  }));
}

/** The tools for the Vercel AI SDK, each built with its `tool()`, its schema with its `jsonSchema()`. */
export async function asVercelTools<TTool, TSchema = unknown>(
  client: ToolInvoker,
  tool: VercelToolFactory<TTool>,
  jsonSchema: (schema: JsonSchema) => TSchema,
  options: FrameworkToolOptions,
): Promise<Record<string, TTool>> {
  const definitions = await toolDefinitions(client, options);
  return Object.fromEntries(
    definitions.map((definition) => {
      const schema = jsonSchema(definition.inputSchema);
      const spec: VercelToolSpec<TSchema> = {
        description: definition.description,
        inputSchema: schema,
        parameters: schema,
        execute: (args, callOptions) => definition.execute(args, { signal: callOptions?.abortSignal, idempotencyKey: callOptions?.toolCallId || undefined }),
      };
      return [definition.name, tool(spec)];
    }),
  );
}

/**
 * A framework's tool-call id as an `Idempotency-Key` (1 to 255 visible ASCII
 * characters): `tool-call:` and the id, its other bytes percent-encoded as
 * UTF-8; an id too long for that is replaced by two 53-bit hashes of it.
 */
export function keyForToolCall(toolCallId: string): string {
  let encoded = "";
  for (const byte of new TextEncoder().encode(toolCallId)) encoded += byte > 0x20 && byte < 0x7f && byte !== 0x25 ? String.fromCharCode(byte) : `%${byte.toString(16).padStart(2, "0")}`;
  const key = `tool-call:${encoded}`;
  return key.length <= 255 ? key : `tool-call#${contentHash("a", toolCallId).toString(36)}${contentHash("b", toolCallId).toString(36)}`;
}
