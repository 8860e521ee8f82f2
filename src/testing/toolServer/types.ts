/** What a tool's `run` receives besides its arguments. */
export interface ToolServerToolContext {
  runId?: string;
  threadId?: string;
  /** The id of the principal that invoked (or, after an approval, requested) the call. */
  principal: string;
  /** Aborted when the call exceeds the tool's `timeoutMs` or the server closes. */
  signal: AbortSignal;
}

/**
 * A tool the reference server offers. `run` may return any JSON value; a plain
 * object whose only key is `error` (a string) is an error result (502 `tool-error`).
 * Throwing `ToolUsage` gives 400 `tool-usage`, `ToolModelError` 502 with its kind,
 * anything else 502 `tool-failed`.
 */
export interface ToolServerTool {
  name: string;
  description: string;
  tags?: string[];
  /** JSON Schema (2020-12) the arguments must satisfy. */
  inputSchema: object;
  /** "required": invoking answers 202 and the tool runs once a reviewer approves; "deny": always 403. Default "none". */
  approval?: "none" | "required" | "deny";
  /** What one call adds to its run's ledger. Default 0. */
  costUsd?: number;
  /** After this long the call answers 504 `tool-timeout` and the signal aborts. */
  timeoutMs?: number;
  /** Returns the name of the rule that blocks these arguments, or undefined to let them through. */
  guardrail?: (args: any) => string | undefined;
  run(args: any, context: ToolServerToolContext): unknown | Promise<unknown>;
}

export interface ToolServerPrincipal {
  id: string;
  scopes?: string[];
}

/** The routes a fault can be aimed at. */
export type ToolServerRoute = "tools" | "invoke" | "approval" | "decide" | "cost" | "events";

/** A misbehaviour the server performs once (or `times` times) for the next matching request. */
export type ToolServerFault =
  | { type: "reset-before-tool" }
  | { type: "reset-after-tool" }
  | { type: "status"; status: 500 | 502 | 503 | 504; retryAfter?: string; kind?: string }
  | { type: "slow"; delayMs: number }
  | { type: "oversized-body"; bytes: number }
  | { type: "non-problem-error"; status: number; body: string; contentType?: string }
  | { type: "refuse" }
  | { type: "drop-mid-frame"; afterEvents: number }
  | { type: "go-silent"; afterEvents: number }
  | { type: "replay-too-much" }
  | { type: "oversized-event"; bytes: number }
  | { type: "non-json-event" }
  | { type: "data-less-end" };

export interface ToolServerOptions {
  /** Path prefix of every route. Default "/api"; "" for none. */
  prefix?: string;
  /** Default: the demo tools (add, echo, send_email, wipe_disk, slow, explode, flaky_model, strict, guarded, timeout, error_result). */
  tools?: ToolServerTool[];
  /** Bearer token → principal. Default: alice-token, bob-token, reviewer-token (scope approvals:decide). */
  principals?: Record<string, ToolServerPrincipal>;
  /**
   * A run whose ledger total has reached this answers invokes with 429 `budget-exceeded`, without
   * `Retry-After`: the budget does not recover.
   */
  budgetUsd?: number;
  /**
   * Makes `budgetUsd` a budget per window of this many seconds (windows follow one another from the
   * run's first cost): `budget-exceeded` then says in `Retry-After` when the window ends.
   */
  budgetWindowSeconds?: number;
  /** Tool calls a run may start; the next answers 409 `run-limit-exceeded`. */
  maxCallsPerRun?: number;
  /** Interval of the event streams' keep-alive comments. Default 15,000. */
  keepAliveMs?: number;
  /** When set, each event stream starts with `retry: <ms>`. */
  retryMs?: number;
  /** Events each run keeps for `Last-Event-ID` replay. Default 1,024. */
  eventLogSize?: number;
  /** Responses kept for idempotent replay (least recently used go first). Default 10,000. */
  idempotencyCapacity?: number;
}

/** One request as the server received it. `path` includes the query string; header names are lower case. */
export interface ToolServerRequest {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
}

export interface ToolServer {
  /** Base URL including the prefix, e.g. http://127.0.0.1:PORT/api */
  readonly url: string;
  inject(fault: ToolServerFault, options?: { times?: number; route?: ToolServerRoute }): void;
  /** How many times the tool's `run` started. */
  toolRuns(name: string): number;
  /** Every request received, preflights included, in arrival order. Authorization values are kept as sent: compare them, do not print them. */
  readonly requests: ReadonlyArray<ToolServerRequest>;
  /** Appends an event to the run's log and live streams; returns its id. */
  emit(runId: string, event: string, data: unknown): string;
  /** Sends `end` with `data` and closes the run's streams. */
  endRun(runId: string, data?: unknown): void;
  recordCost(runId: string, entry: { stage: string; kind: string; usd: number; cached?: boolean }): void;
  /** Destroys the open event-stream sockets (of one run, or all). */
  dropEventStreams(runId?: string): void;
  /** Closes every socket, aborts running tools and stops every timer. */
  close(): Promise<void>;
}
