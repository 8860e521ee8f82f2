import type { SchedulerLike } from "rxjs";
import { z } from "zod";
import { ToolProtocolError } from "./errors";

/** A JSON Schema object, as the server describes a tool's arguments. */
export type JsonSchema = Record<string, unknown>;

/** Provider-ready declaration shapes `listTools({ shape })` can ask for. */
export type ToolShape = "openai" | "anthropic" | "gemini";

/** One tool, as `GET /tools` describes it. Unknown fields are kept. */
export interface ToolDescriptor {
  name: string;
  description: string;
  tags: string[];
  input_schema: JsonSchema;
  requires_approval: boolean;
  /** The declaration in the provider's own shape, when `shape` was asked for. */
  provider?: Record<string, unknown>;
  [field: string]: unknown;
}

/** What `invoke` and an approved `decide` give back. */
export interface ToolResult<T = unknown> {
  status: "ok";
  result: T;
  call_id?: string;
  approval_id?: string;
  [field: string]: unknown;
}

/** The tool waits for a reviewer: see `getApproval` and `decide`. */
export interface PendingApproval {
  status: "pending_approval";
  approval_id: string;
  [field: string]: unknown;
}

export type InvokeResult<T = unknown> = ToolResult<T> | PendingApproval;

/** A reviewer said no. */
export interface ApprovalDenied {
  status: "denied";
  reason?: string;
  approval_id?: string;
  [field: string]: unknown;
}

export type DecideResult<T = unknown> = ToolResult<T> | ApprovalDenied;

/** One approval request, as `GET /approvals/{id}` describes it. */
export interface ApprovalRequest {
  approval_id: string;
  status: "pending" | "approved" | "denied";
  tool: string;
  /** The arguments the tool would run with: show them to the reviewer. */
  arguments: Record<string, unknown>;
  run_id?: string | null;
  thread_id?: string | null;
  requested_by?: string;
  requested_at?: string;
  decided_at?: string | null;
  decided_by?: string | null;
  reason?: string | null;
  [field: string]: unknown;
}

/** The cost ledger of a run, summed. */
export interface LedgerSummary {
  run_id: string;
  total_usd: number;
  /** How many ledger entries were summed. */
  calls: number;
  /** Dollars per stage (for example `tool`, `model`). */
  by_stage: Record<string, number>;
  /** Dollars per kind (for example a tool's or a model's name). */
  by_kind: Record<string, number>;
  /** Share of cached answers, 0 to 1, for tool calls and model calls. */
  cache_hit_rate: { tool: number; model: number };
  /** How many calls of the run ran at once: at most, and on average over the time any ran. */
  parallelism: { max_concurrent: number; mean_concurrent: number };
  [field: string]: unknown;
}

export interface RetryOptions {
  /** Retries after the first attempt. Default 3. */
  maxRetries?: number | undefined;
  /** The first backoff delay; each next one doubles, less up to 25 % jitter. Default 500 ms. */
  baseDelayMs?: number | undefined;
  /** The longest wait: backoff is capped at it, and a `Retry-After` longer than it is not waited for. Default 30 s. */
  maxDelayMs?: number | undefined;
}

export interface ToolClientOptions {
  /** The server's base URL, with its path prefix (`https://tools.internal/api`). No credentials, query or fragment. */
  baseUrl: string | URL;
  /** The bearer token, or a function (may be async) called before every attempt, so short-lived tokens refresh. */
  token?: string | (() => string | Promise<string>) | undefined;
  /** Longest time one attempt may take, answer body included. Default 30 s: raise it for slow tools. */
  timeoutMs?: number | undefined;
  /** The retry policy, or `false` for none. */
  retry?: RetryOptions | false | undefined;
  /** Largest response body accepted, in bytes (an error body is cut there, keeping its status). Default 16 MiB; `Infinity` for none. */
  maxResponseSize?: number | undefined;
  /** Your own `fetch`. Default: the global one. */
  fetch?: typeof fetch | undefined;
  /** Schedules timeouts and backoff (a `TestScheduler` runs them in virtual time). Default: rxjs `asyncScheduler`. */
  scheduler?: SchedulerLike | undefined;
  /** Receives the client's warnings (plain `http://` to another host). Default: `console.warn`. */
  onWarning?: ((message: string) => void) | undefined;
}

export interface CallOptions {
  /** Aborting rejects the call with the signal's reason and closes the connection. */
  signal?: AbortSignal | undefined;
}

export interface InvokeOptions extends CallOptions {
  /** Sent as `run_id`; the first principal to use a run owns it. */
  runId?: string | undefined;
  /** Sent as `thread_id`. */
  threadId?: string | undefined;
  /** Sent as `Idempotency-Key` on every attempt of this call. Default: a random UUID. */
  idempotencyKey?: string | undefined;
}

export interface DecideOptions extends CallOptions {
  /** Sent as `Idempotency-Key` on every attempt of this call. Default: a random UUID. */
  idempotencyKey?: string | undefined;
}

export interface Decision {
  approved: boolean;
  /** Run the tool with these arguments instead of the requested ones. */
  editedArguments?: Record<string, unknown> | undefined;
  /** Why; kept with the approval. */
  reason?: string | undefined;
}

export interface ListToolsOptions extends CallOptions {
  /** Only tools with at least one of these tags. */
  tags?: string[] | undefined;
  /** Add each tool's declaration in this provider's shape, in `provider`. */
  shape?: ToolShape | undefined;
}

// What the client relies on in each answer; anything else the server adds is kept as it is.
const record = z.record(z.string(), z.unknown());
const toolDescriptor = z.object({ name: z.string(), description: z.string(), tags: z.array(z.string()), input_schema: record, requires_approval: z.boolean() }).passthrough();
const toolResult = z.object({ status: z.literal("ok"), result: z.unknown() }).passthrough();
const pendingApproval = z.object({ status: z.literal("pending_approval"), approval_id: z.string().min(1) }).passthrough();
const approvalDenied = z.object({ status: z.literal("denied") }).passthrough();
const approvalRequest = z.object({ approval_id: z.string(), status: z.enum(["pending", "approved", "denied"]), tool: z.string(), arguments: record }).passthrough();
const money = z.record(z.string(), z.number());
const ledgerSummary = z
  .object({
    run_id: z.string(),
    total_usd: z.number(),
    calls: z.number(),
    by_stage: money,
    by_kind: money,
    cache_hit_rate: z.object({ tool: z.number(), model: z.number() }).passthrough(),
    parallelism: z.object({ max_concurrent: z.number(), mean_concurrent: z.number() }).passthrough(),
  })
  .passthrough();

export const wire = {
  toolList: z.object({ tools: z.array(toolDescriptor) }).passthrough(),
  invoke: z.union([toolResult, pendingApproval]),
  decide: z.union([toolResult, approvalDenied]),
  approvalRequest,
  ledgerSummary,
};

/**
 * The payload when it has the shape the protocol promises; otherwise a
 * `ToolProtocolError` naming the call and where the answer breaks it.
 */
export function readPayload<T>(schema: z.ZodTypeAny, body: unknown, what: string): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ToolProtocolError(`The tool server's answer to ${what} does not have the shape the protocol promises: ${whereItBreaks(parsed.error.issues)}`);
  return parsed.data as T;
}

/** A zod issue as far as this reads it, in zod 3 and 4 alike. */
interface Issue {
  code: string;
  path: readonly PropertyKey[];
  expected?: unknown;
  options?: readonly unknown[];
  values?: readonly unknown[];
  unionErrors?: readonly { issues: readonly Issue[] }[];
  errors?: readonly (readonly Issue[])[];
}

/**
 * Where the first issue is (a JSON pointer) and what the protocol expects
 * there, taken from the schema: zod's own messages may quote the value (an
 * unknown enum value, in zod 3), so they are not used. Of a union, the
 * branch that got furthest speaks.
 */
function whereItBreaks(issues: readonly Issue[], prefix: readonly PropertyKey[] = []): string {
  const issue = issues[0];
  if (issue === undefined) return "at the top";
  const path = [...prefix, ...issue.path];
  const branches = issue.unionErrors?.map((branch) => branch.issues) ?? issue.errors;
  if (issue.code === "invalid_union" && branches && branches.length > 0) {
    const furthest = branches.reduce((best, branch) => ((branch[0]?.path.length ?? -1) > (best[0]?.path.length ?? -1) ? branch : best));
    // zod 3's branch issues carry the whole path, zod 4's the path below the union.
    return whereItBreaks(furthest, issue.unionErrors ? [] : path);
  }
  // A record's keys are the server's: the pointer is cut short.
  const pointer = path.length === 0 ? "the top" : `/${path.map((part) => String(part).replaceAll("~", "~0").replaceAll("/", "~1")).join("/")}`.slice(0, 200);
  // The values the schema allows: zod 3 names them per code, zod 4 as `values`.
  const allowed = issue.code === "invalid_literal" ? [issue.expected] : issue.code === "invalid_enum_value" ? issue.options : issue.code === "invalid_value" ? issue.values : undefined;
  if (allowed) return `at ${pointer}, expected ${allowed.map((value) => JSON.stringify(value)).join(" or ")}`;
  return issue.code === "invalid_type" && typeof issue.expected === "string" ? `at ${pointer}, expected ${issue.expected}` : `at ${pointer} (${issue.code})`;
}
