import { Validator } from "@cfworker/json-schema";
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { argumentErrors } from "./argumentErrors";
import { defaultTools } from "./defaultTools";
import { FaultQueue } from "./faults";
import type { WireReply } from "./http";
import { IdempotencyStore } from "./idempotency";
import { ProblemError } from "./problems";
import { Run } from "./runs";
import { ToolModelError, ToolUsage } from "./toolErrors";
import type { ToolServerOptions, ToolServerPrincipal, ToolServerTool, ToolServerToolContext } from "./types";

export interface Principal {
  id: string;
  scopes: readonly string[];
}

export interface Approval {
  id: string;
  status: "pending" | "approved" | "denied";
  tool: ToolServerTool;
  arguments: Record<string, unknown>;
  runId: string | undefined;
  threadId: string | undefined;
  requestedBy: string;
  requestedAt: string;
  decidedAt?: string;
  decidedBy?: string;
  reason?: string | null;
}

/** Who a tool call is for. */
export interface CallOrigin {
  principal: string;
  runId: string | undefined;
  threadId: string | undefined;
  approvalId?: string;
}

const DEFAULT_PRINCIPALS: Record<string, ToolServerPrincipal> = {
  "alice-token": { id: "alice" },
  "bob-token": { id: "bob" },
  "reviewer-token": { id: "reviewer", scopes: ["approvals:decide"] },
};

const DECIDE_SCOPE = "approvals:decide";

/** Everything the routes share: tools, principals, runs, approvals, idempotency, faults, and the calls in progress. */
export class ServerState {
  readonly prefix: string;
  readonly keepAliveMs: number;
  readonly retryMs: number | undefined;
  readonly faults = new FaultQueue();
  readonly idempotency: IdempotencyStore<WireReply>;
  readonly runs = new Map<string, Run>();
  readonly approvals = new Map<string, Approval>();
  readonly tools = new Map<string, { tool: ToolServerTool; validator: Validator }>();
  private readonly principals: Map<string, Principal>;
  private readonly runCounts = new Map<string, number>();
  private readonly inProgress = new Set<AbortController>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly eventLogSize: number;

  constructor(private readonly options: ToolServerOptions) {
    this.prefix = (options.prefix ?? "/api").replace(/\/+$/, "").replace(/^(?=[^/])/, "/");
    this.keepAliveMs = options.keepAliveMs ?? 15_000;
    this.retryMs = options.retryMs;
    this.eventLogSize = options.eventLogSize ?? 1_024;
    const { budgetWindowSeconds } = options;
    if (budgetWindowSeconds !== undefined && !(budgetWindowSeconds > 0 && Number.isFinite(budgetWindowSeconds))) {
      throw new TypeError("startToolServer: budgetWindowSeconds must be a positive, finite number of seconds");
    }
    this.idempotency = new IdempotencyStore(options.idempotencyCapacity ?? 10_000);
    this.principals = new Map(Object.entries(options.principals ?? DEFAULT_PRINCIPALS).map(([token, { id, scopes = [] }]) => [token, { id, scopes }]));
    for (const tool of options.tools ?? defaultTools()) {
      if (this.tools.has(tool.name)) throw new Error(`two tools are named ${tool.name}`);
      this.tools.set(tool.name, { tool, validator: new Validator(tool.inputSchema, "2020-12", false) });
    }
  }

  authenticate(authorization: string | undefined): Principal {
    const token = /^Bearer (\S+)$/i.exec(authorization ?? "")?.[1];
    const principal = token === undefined ? undefined : this.principals.get(token);
    if (principal === undefined) {
      throw new ProblemError("unauthorized", authorization === undefined ? "A bearer token is required" : "The bearer token is not valid", {}, { "www-authenticate": "Bearer" });
    }
    return principal;
  }

  /** The run, created (without an owner) on first mention. */
  run(id: string): Run {
    let run = this.runs.get(id);
    if (run === undefined) this.runs.set(id, (run = new Run(id, this.eventLogSize)));
    return run;
  }

  /** The run for this principal: the first to use it owns it; anyone else is refused. */
  claim(run: Run, principal: Principal): Run {
    run.owner ??= principal.id;
    if (run.owner !== principal.id) throw new ProblemError("run-forbidden", `Run ${run.id} belongs to another principal`);
    return run;
  }

  tool(name: string): ToolServerTool {
    const entry = this.tools.get(name);
    if (entry === undefined) throw new ProblemError("tool-not-found", `No tool is named ${JSON.stringify(name)}`);
    return entry.tool;
  }

  /** Rejects arguments the schema or the guardrail refuses. */
  check(tool: ToolServerTool, args: Record<string, unknown>): void {
    const entry = this.tools.get(tool.name);
    const errors = entry === undefined ? [] : argumentErrors(tool.inputSchema, entry.validator, args);
    if (errors.length > 0) throw new ProblemError("tool-args-invalid", `The arguments of ${tool.name} do not match its input schema`, { errors });
    const rule = tool.guardrail?.(args);
    if (rule !== undefined) throw new ProblemError("guardrail-blocked", `The guardrail rule ${JSON.stringify(rule)} blocked this call of ${tool.name}`, { rule });
  }

  /** Refuses a new tool call in a run that has reached its call limit or budget. */
  admit(run: Run | undefined): void {
    if (run === undefined) return;
    const { maxCallsPerRun, budgetUsd } = this.options;
    if (maxCallsPerRun !== undefined && run.toolCalls >= maxCallsPerRun) {
      throw new ProblemError("run-limit-exceeded", `Run ${run.id} has made its ${maxCallsPerRun} tool calls`, { max_calls: maxCallsPerRun });
    }
    if (budgetUsd !== undefined) this.checkBudget(run, budgetUsd);
  }

  /**
   * A run's budget is spent for good, so its refusal carries no `Retry-After`;
   * a budget per window recovers when the window ends, and says so.
   */
  private checkBudget(run: Run, budgetUsd: number): void {
    const windowSeconds = this.options.budgetWindowSeconds;
    if (windowSeconds === undefined) {
      if (run.ledger.totalUsd >= budgetUsd) throw new ProblemError("budget-exceeded", `Run ${run.id} has spent its budget of ${budgetUsd} USD`, { budget_usd: budgetUsd });
      return;
    }
    const now = performance.now();
    const window = run.ledger.window(windowSeconds * 1_000, now);
    if (window.usd < budgetUsd) return;
    const retryAfter = Math.max(1, Math.ceil((window.endsAt - now) / 1_000));
    throw new ProblemError(
      "budget-exceeded",
      `Run ${run.id} has spent its budget of ${budgetUsd} USD for this window of ${windowSeconds} s`,
      { budget_usd: budgetUsd, window_seconds: windowSeconds },
      { "retry-after": String(retryAfter) },
    );
  }

  mayReview(approval: Approval, principal: Principal): void {
    if (principal.id !== approval.requestedBy && !principal.scopes.includes(DECIDE_SCOPE)) {
      throw new ProblemError("forbidden", `Only the requester or a principal with the ${DECIDE_SCOPE} scope may see or decide approval ${approval.id}`);
    }
  }

  requestApproval(tool: ToolServerTool, args: Record<string, unknown>, origin: CallOrigin): Approval {
    const approval: Approval = {
      id: `apr_${randomUUID()}`,
      status: "pending",
      tool,
      arguments: args,
      runId: origin.runId,
      threadId: origin.threadId,
      requestedBy: origin.principal,
      requestedAt: new Date().toISOString(),
    };
    this.approvals.set(approval.id, approval);
    this.notify(origin, "approval.requested", { tool: tool.name, approval_id: approval.id });
    return approval;
  }

  toolRuns(name: string): number {
    return this.runCounts.get(name) ?? 0;
  }

  /** Runs the tool once: counts it, charges its run, tells the run's streams, and maps what it threw to a problem. */
  async execute(tool: ToolServerTool, args: Record<string, unknown>, origin: CallOrigin): Promise<{ callId: string; result: unknown }> {
    const run = origin.runId === undefined ? undefined : this.run(origin.runId);
    const callId = `call_${randomUUID()}`;
    const about = { tool: tool.name, call_id: callId, ...(origin.approvalId === undefined ? {} : { approval_id: origin.approvalId }) };
    this.runCounts.set(tool.name, this.toolRuns(tool.name) + 1);
    if (run !== undefined) {
      run.toolCalls++;
      run.ledger.add({ stage: "tool", kind: tool.name, usd: tool.costUsd ?? 0, cached: false });
    }
    const settled = run?.ledger.startCall();
    this.notify(origin, "tool.started", about);
    const controller = new AbortController();
    this.inProgress.add(controller);
    let timer: NodeJS.Timeout | undefined;
    try {
      const context: ToolServerToolContext = { principal: origin.principal, signal: controller.signal };
      if (origin.runId !== undefined) context.runId = origin.runId;
      if (origin.threadId !== undefined) context.threadId = origin.threadId;
      const outcome = new Promise<unknown>((resolve) => resolve(tool.run(args, context)));
      const timeout = tool.timeoutMs;
      const result = await (timeout === undefined
        ? outcome
        : Promise.race([outcome, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(timedOut(tool, timeout)), timeout).unref()))]));
      if (isErrorResult(result)) throw new ProblemError("tool-error", result.error);
      this.notify(origin, "tool.finished", about);
      return { callId, result: result === undefined ? null : result };
    } catch (error) {
      const problem = problemFrom(error, tool.name);
      if (problem.kind === "tool-timeout") controller.abort(problem);
      this.notify(origin, "tool.failed", { ...about, kind: problem.kind });
      throw problem;
    } finally {
      clearTimeout(timer);
      this.inProgress.delete(controller);
      settled?.();
    }
  }

  /** A timer that `close` clears. */
  delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => (this.timers.delete(timer), resolve()), ms).unref();
      this.timers.add(timer);
    });
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const controller of this.inProgress) controller.abort(new Error("the tool server is closing"));
  }

  private notify(origin: CallOrigin, event: string, data: Record<string, unknown>): void {
    if (origin.runId === undefined) return;
    this.run(origin.runId).notify(event, { run_id: origin.runId, ...(origin.threadId === undefined ? {} : { thread_id: origin.threadId }), ...data });
  }
}

const timedOut = (tool: ToolServerTool, ms: number) => new ProblemError("tool-timeout", `${tool.name} did not finish within ${ms} ms`);

/** The error-result convention: a plain object whose only key is a string `error`. */
function isErrorResult(value: unknown): value is { error: string } {
  if (typeof value !== "object" || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === "error" && typeof (value as { error: unknown }).error === "string";
}

/** What a tool threw, as the caller sees it; unexpected errors are named by class only, as their messages may hold secrets. */
function problemFrom(error: unknown, tool: string): ProblemError {
  if (error instanceof ProblemError) return error;
  if (error instanceof ToolUsage) return new ProblemError("tool-usage", error.message);
  if (error instanceof ToolModelError) return new ProblemError(error.kind, error.message);
  const name = error instanceof Error ? error.name : typeof error;
  return new ProblemError("tool-failed", `${tool} raised ${name}`);
}
