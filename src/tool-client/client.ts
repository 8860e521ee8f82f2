import { asyncScheduler, defer, type Observable } from "rxjs";
import { asyncIteratorFrom } from "./asyncIteratorFrom";
import { DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_MAX_EVENT_SIZE, eventStream$, resumableEvents, type Demand, type EventsOptions, type ServerEvent } from "./events";
import { firstValueOrAbort } from "./firstValueOrAbort";
import { asVercelTools, toolDefinitions, type FrameworkToolOptions, type ToolDefinition, type VercelToolFactory } from "./frameworkTools";
import { randomId } from "../internal/ids";
import { attempt$, canBeHeader, checkedDuration, checkedSize, pathSegment, type JsonAnswer, type RequestSpec, type Transport } from "./http";
import { retryPolicy, retrySettings, type RetryPolicy } from "./retryPolicy";
import {
  readPayload,
  wire,
  type ApprovalRequest,
  type CallOptions,
  type DecideOptions,
  type DecideResult,
  type Decision,
  type InvokeOptions,
  type InvokeResult,
  type JsonSchema,
  type LedgerSummary,
  type ListToolsOptions,
  type ToolClientOptions,
  type ToolDescriptor,
} from "./types";

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RESPONSE_SIZE = 16 * 1024 * 1024;
/**
 * Events `events()` lets wait for the loop before it stops reading the body:
 * past it the bytes stay in TCP's buffers and the server is held back. (The
 * events of one slice being parsed, at most 64 KiB of bytes, may pass it.)
 */
export const EVENTS_QUEUE_LIMIT = 64;

/**
 * A client for the HTTP tool server (docs/tool-server-protocol.md): one
 * method per route, typed RFC 9457 errors, retries that never run a tool
 * twice, and the bearer token kept out of sight.
 *
 * ```ts
 * const client = new ToolClient({ baseUrl: "https://tools.internal/api", token: () => auth.token() });
 * const call = await client.invoke<{ sum: number }>("add", { a: 2, b: 3 }, { runId });
 * ```
 */
export class ToolClient {
  /** The server's base URL (it never carries credentials). */
  readonly baseUrl: string;
  readonly #transport: Transport;
  readonly #retry: RetryPolicy | false;

  constructor(options: ToolClientOptions) {
    const url = checkedBaseUrl(options.baseUrl);
    this.baseUrl = url.href;
    if (typeof options.token === "string") checkToken(options.token);
    this.#retry = retrySettings(options.retry);
    const token = options.token;
    this.#transport = {
      base: url.href.replace(/\/+$/, ""),
      token: async () => (typeof token === "function" ? checkToken(await token()) : token),
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      timeoutMs: checkedDuration("timeoutMs", options.timeoutMs, DEFAULT_TIMEOUT_MS),
      maxResponseSize: checkedSize("maxResponseSize", options.maxResponseSize, DEFAULT_MAX_RESPONSE_SIZE),
      scheduler: options.scheduler ?? asyncScheduler,
    };
    if (url.protocol === "http:" && !isLoopback(url.hostname)) {
      (options.onWarning ?? console.warn)(`carbon-agui-rx/tool-client: ${url.host} is reached over plain http://, so the bearer token travels unencrypted; use https:// outside localhost`);
    }
  }

  /** The tools the server offers, those with any of `tags` when given; `shape` adds provider-ready declarations. */
  async listTools(options: ListToolsOptions = {}): Promise<ToolDescriptor[]> {
    const query = new URLSearchParams();
    for (const tag of options.tags ?? []) query.append("tags", tag);
    if (options.shape) query.set("shape", options.shape);
    const answer = await this.#call({ method: "GET", path: "/tools", query, what: "listTools" }, options.signal);
    return readPayload<{ tools: ToolDescriptor[] }>(wire.toolList, answer.body, "listTools").tools;
  }

  /**
   * Runs a tool. Resolves with its result, or with `pending_approval` when a
   * reviewer must decide first. Every attempt carries the same
   * `Idempotency-Key`, so a retried call never runs the tool twice.
   */
  async invoke<T = unknown>(name: string, args: Record<string, unknown>, options: InvokeOptions = {}): Promise<InvokeResult<T>> {
    const what = `invoke ${name}`;
    const body: Record<string, unknown> = { arguments: args };
    if (options.runId !== undefined) body.run_id = options.runId;
    if (options.threadId !== undefined) body.thread_id = options.threadId;
    const spec: RequestSpec = { method: "POST", path: `/tools/${pathSegment(name, "the tool name")}/invoke`, body, headers: { "idempotency-key": idempotencyKey(options.idempotencyKey) }, what };
    const answer = await this.#call(spec, options.signal);
    return readPayload<InvokeResult<T>>(wire.invoke, answer.body, what);
  }

  /** One approval request: what the tool would run with, and whether it was decided. */
  async getApproval(approvalId: string, options: CallOptions = {}): Promise<ApprovalRequest> {
    const what = `getApproval ${approvalId}`;
    const answer = await this.#call({ method: "GET", path: `/approvals/${pathSegment(approvalId, "approvalId")}`, what }, options.signal);
    return readPayload<ApprovalRequest>(wire.approvalRequest, answer.body, what);
  }

  /**
   * Approves (the tool runs, with `editedArguments` when given, and its
   * result comes back) or denies (`{ status: "denied", reason }`). Only the
   * run's owner or a principal with the `approvals:decide` scope may.
   */
  async decide<T = unknown>(approvalId: string, decision: Decision, options: DecideOptions = {}): Promise<DecideResult<T>> {
    const what = `decide ${approvalId}`;
    const body: Record<string, unknown> = { approved: decision.approved };
    if (decision.editedArguments !== undefined) body.edited_arguments = decision.editedArguments;
    if (decision.reason !== undefined) body.reason = decision.reason;
    const spec: RequestSpec = {
      method: "POST",
      path: `/approvals/${pathSegment(approvalId, "approvalId")}/decide`,
      body,
      headers: { "idempotency-key": idempotencyKey(options.idempotencyKey) },
      what,
    };
    const answer = await this.#call(spec, options.signal);
    return readPayload<DecideResult<T>>(wire.decide, answer.body, what);
  }

  /** The run's cost ledger, summed. */
  async cost(runId: string, options: CallOptions = {}): Promise<LedgerSummary> {
    const what = `cost ${runId}`;
    const answer = await this.#call({ method: "GET", path: `/runs/${pathSegment(runId, "runId")}/cost`, what }, options.signal);
    return readPayload<LedgerSummary>(wire.ledgerSummary, answer.body, what);
  }

  /**
   * The run's server-sent events, as a cold Observable: each subscription
   * connects; unsubscribing closes the connection. It reconnects with
   * `Last-Event-ID` when the connection drops, closes before `end` or goes
   * silent, skips what the server replays, and completes after `end` or an
   * event named in `closeOn`.
   */
  events$<T = unknown>(runId: string, options: EventsOptions = {}): Observable<ServerEvent<T>> {
    return this.#events$<T>(runId, options, undefined);
  }

  /**
   * `events$` as an async iterator: `for await (const event of client.events(runId))`.
   * It connects on the first step. Leaving the loop (`break`, `return`, a throw) or aborting
   * `signal` closes the connection at once; aborting rejects the loop with the signal's reason.
   * It reads the body only while fewer than `EVENTS_QUEUE_LIMIT` events wait for the loop,
   * so a slow loop holds the server back through TCP instead of filling memory.
   */
  events<T = unknown>(runId: string, options: EventsOptions & CallOptions = {}): AsyncIterableIterator<ServerEvent<T>> {
    const { signal, ...streamOptions } = options;
    return asyncIteratorFrom<ServerEvent<T>>((demand) => this.#events$<T>(runId, streamOptions, demand), EVENTS_QUEUE_LIMIT, signal);
  }

  #events$<T>(runId: string, options: EventsOptions, demand: Demand | undefined): Observable<ServerEvent<T>> {
    const transport = this.#transport;
    pathSegment(runId, "runId");
    if (options.lastEventId !== undefined && !canBeHeader(options.lastEventId)) throw new TypeError("ToolClient: lastEventId must be visible ASCII to travel as Last-Event-ID");
    const maxEventSize = checkedSize("maxEventSize", options.maxEventSize, DEFAULT_MAX_EVENT_SIZE);
    const retry = retrySettings(options.retry, this.#retry);
    return resumableEvents((lastEventId) => eventStream$(transport, runId, lastEventId, maxEventSize, demand), {
      closeOn: new Set(options.closeOn),
      lastEventId: options.lastEventId,
      idleTimeoutMs: checkedDuration("idleTimeoutMs", options.idleTimeoutMs, DEFAULT_IDLE_TIMEOUT_MS),
      retry,
      scheduler: options.scheduler ?? transport.scheduler,
      random: Math.random,
      demand,
    }) as Observable<ServerEvent<T>>;
  }

  /**
   * The tools as framework-neutral definitions (Mastra's `createTool`,
   * LangChain.js's `tool`, OpenAI Agents' `tool`): `execute` invokes the tool
   * in `runId` and returns its result, or `{ pending_approval: id }`.
   */
  toolDefinitions(options: FrameworkToolOptions = {}): Promise<ToolDefinition[]> {
    return toolDefinitions(this, options);
  }

  /** The tools for the Vercel AI SDK: pass its `tool` and `jsonSchema` (`import { tool, jsonSchema } from "ai"`). */
  asVercelTools<TTool, TSchema = unknown>(tool: VercelToolFactory<TTool>, jsonSchema: (schema: JsonSchema) => TSchema, options: FrameworkToolOptions = {}): Promise<Record<string, TTool>> {
    return asVercelTools(this, tool, jsonSchema, options);
  }

  /** The token stays out of logs: this is what `console.log(client)` shows. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `ToolClient { baseUrl: '${this.baseUrl}' }`;
  }

  toJSON(): Record<string, unknown> {
    return { baseUrl: this.baseUrl };
  }

  /** One call: its attempts as an Observable, retried by the policy, settled as a promise. */
  #call(spec: RequestSpec, signal: AbortSignal | undefined): Promise<JsonAnswer> {
    const attempts = defer(() => attempt$(this.#transport, spec)).pipe(retryPolicy<JsonAnswer>(spec.method, this.#retry, this.#transport.scheduler));
    return firstValueOrAbort(attempts, signal);
  }
}

function checkedBaseUrl(baseUrl: string | URL): URL {
  const raw = String(baseUrl);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError("ToolClient: baseUrl is not an absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError("ToolClient: baseUrl must be an http:// or https:// URL");
  // Not quoted: whatever is there may be a secret.
  if (url.username || url.password) throw new TypeError("ToolClient: baseUrl must not carry credentials; pass them as `token`");
  if (url.search || url.hash || raw.includes("?") || raw.includes("#")) throw new TypeError("ToolClient: baseUrl must not carry a query or a fragment");
  return url;
}

function checkToken(token: unknown): string {
  if (typeof token !== "string") throw new TypeError("ToolClient: the token must be a string");
  // Anything else in a header value is refused by fetch, with the value in the message.
  if (!canBeHeader(token)) throw new TypeError("ToolClient: the token contains a control or non-ASCII character, so it was not sent");
  return token;
}

function idempotencyKey(given: string | undefined): string {
  if (given === undefined) return randomId();
  if (given.length === 0 || given.length > 255 || !/^[\x21-\x7e]+$/.test(given)) throw new TypeError("ToolClient: an idempotencyKey is 1 to 255 visible ASCII characters");
  return given;
}

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname.endsWith(".localhost") || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
}
