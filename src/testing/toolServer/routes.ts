import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import { EventStream } from "./events";
import { ProblemError, type Reply } from "./problems";
import type { Approval, Principal, ServerState } from "./state";
import type { ToolServerTool } from "./types";
import { isRecord } from "../../internal/isRecord";

/** One authenticated request, as the handlers see it. */
export interface Call {
  principal: Principal;
  /** The path's variable segment (tool name, approval id or run id), decoded. */
  param: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

const SHAPES = ["openai", "anthropic", "gemini"] as const;

export function listTools(state: ServerState, call: Call): Reply {
  const shape = call.query.get("shape");
  if (shape !== null && !(SHAPES as readonly string[]).includes(shape)) {
    throw new ProblemError("bad-request", `shape must be one of ${SHAPES.join(", ")}`);
  }
  const tags = call.query.getAll("tags").filter((tag) => tag !== "");
  const tools = [...state.tools.values()]
    .map(({ tool }) => tool)
    .filter((tool) => tags.length === 0 || tags.some((tag) => tool.tags?.includes(tag)))
    .map((tool) => describeTool(tool, shape as (typeof SHAPES)[number] | null));
  return { status: 200, body: { tools } };
}

function describeTool(tool: ToolServerTool, shape: (typeof SHAPES)[number] | null) {
  const { name, description, inputSchema } = tool;
  const descriptor = { name, description, tags: tool.tags ?? [], input_schema: inputSchema, requires_approval: tool.approval === "required" };
  if (shape === null) return descriptor;
  const provider = {
    openai: { type: "function", function: { name, description, parameters: inputSchema } },
    anthropic: { name, description, input_schema: inputSchema },
    gemini: { name, description, parameters: inputSchema },
  }[shape];
  return { ...descriptor, provider };
}

export async function invoke(state: ServerState, call: Call): Promise<Reply> {
  const body = jsonObject(call);
  const args = body["arguments"];
  if (!isRecord(args)) throw new ProblemError("bad-request", "arguments must be a JSON object");
  const origin = { principal: call.principal.id, runId: optionalId(body, "run_id"), threadId: optionalId(body, "thread_id") };
  const tool = state.tool(call.param);
  const run = origin.runId === undefined ? undefined : state.claim(state.run(origin.runId), call.principal);
  if (tool.approval === "deny") throw new ProblemError("approval-denied", `${tool.name} may not be run by anyone`);
  state.check(tool, args);
  state.admit(run);
  if (tool.approval === "required") {
    const approval = state.requestApproval(tool, args, origin);
    return { status: 202, body: { status: "pending_approval", approval_id: approval.id } };
  }
  const { callId, result } = await state.execute(tool, args, origin);
  return { status: 200, body: { status: "ok", result, call_id: callId } };
}

export function getApproval(state: ServerState, call: Call): Reply {
  const approval = findApproval(state, call);
  return { status: 200, body: describeApproval(approval) };
}

export async function decide(state: ServerState, call: Call): Promise<Reply> {
  const approval = findApproval(state, call);
  const body = jsonObject(call);
  const { approved, edited_arguments: edited, reason = null } = body;
  if (typeof approved !== "boolean") throw new ProblemError("bad-request", "approved must be true or false");
  if (edited !== undefined && !isRecord(edited)) throw new ProblemError("bad-request", "edited_arguments must be a JSON object");
  if (reason !== null && typeof reason !== "string") throw new ProblemError("bad-request", "reason must be a string");
  if (approval.status !== "pending") throw new ProblemError("approval-already-decided", `Approval ${approval.id} was already ${approval.status}`, { approval_status: approval.status });
  const origin = { principal: approval.requestedBy, runId: approval.runId, threadId: approval.threadId, approvalId: approval.id };
  if (!approved) {
    settle(state, approval, call.principal, "denied", reason);
    return { status: 200, body: { status: "denied", reason, approval_id: approval.id } };
  }
  const args = edited ?? approval.arguments;
  // The approval stays pending when these refuse: the reviewer may fix the edit, or retry once the budget allows.
  state.check(approval.tool, args);
  state.admit(approval.runId === undefined ? undefined : state.run(approval.runId));
  settle(state, approval, call.principal, "approved", reason);
  const { callId, result } = await state.execute(approval.tool, args, origin);
  return { status: 200, body: { status: "ok", result, call_id: callId, approval_id: approval.id } };
}

export function cost(state: ServerState, call: Call): Reply {
  const run = state.runs.get(call.param);
  if (run === undefined) throw new ProblemError("run-not-found", `No run has the id ${JSON.stringify(call.param)}`);
  state.claim(run, call.principal);
  return { status: 200, body: run.ledger.summary(run.id) };
}

/** Opens the run's event stream: what was missed since `Last-Event-ID` first, then live events until `end`. */
export function events(state: ServerState, call: Call, response: ServerResponse): void {
  const run = state.claim(state.run(call.param), call.principal);
  const fault = state.faults.takeStreamFault();
  const stream = new EventStream(response, fault, { keepAliveMs: state.keepAliveMs, retryMs: state.retryMs });
  const lastEventId = fault?.type === "replay-too-much" ? undefined : headerValue(call.headers["last-event-id"]);
  run.streams.add(stream);
  response.once("close", () => run.streams.delete(stream));
  const end = run.events.endEvent;
  for (const entry of run.events.after(lastEventId)) if (entry !== end) stream.send(entry);
  if (end !== undefined) {
    stream.send(end);
    stream.finish();
  }
}

function findApproval(state: ServerState, call: Call): Approval {
  const approval = state.approvals.get(call.param);
  if (approval === undefined) throw new ProblemError("approval-not-found", `No approval has the id ${JSON.stringify(call.param)}`);
  state.mayReview(approval, call.principal);
  return approval;
}

function settle(state: ServerState, approval: Approval, decider: Principal, status: "approved" | "denied", reason: string | null): void {
  Object.assign(approval, { status, decidedAt: new Date().toISOString(), decidedBy: decider.id, reason });
  if (approval.runId === undefined) return;
  state.run(approval.runId).notify("approval.decided", {
    run_id: approval.runId,
    ...(approval.threadId === undefined ? {} : { thread_id: approval.threadId }),
    tool: approval.tool.name,
    approval_id: approval.id,
    approved: status === "approved",
    decided_by: decider.id,
  });
}

function describeApproval(approval: Approval) {
  return {
    approval_id: approval.id,
    status: approval.status,
    tool: approval.tool.name,
    arguments: approval.arguments,
    run_id: approval.runId ?? null,
    thread_id: approval.threadId ?? null,
    requested_by: approval.requestedBy,
    requested_at: approval.requestedAt,
    ...(approval.decidedAt === undefined ? {} : { decided_at: approval.decidedAt, decided_by: approval.decidedBy, reason: approval.reason ?? null }),
  };
}

function jsonObject(call: Call): Record<string, unknown> {
  const type = call.headers["content-type"] ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type)) throw new ProblemError("bad-request", "Content-Type must be application/json");
  let body: unknown;
  try {
    body = JSON.parse(call.body);
  } catch {
    throw new ProblemError("bad-request", "The body is not valid JSON");
  }
  if (!isRecord(body)) throw new ProblemError("bad-request", "The body must be a JSON object");
  return body;
}

function optionalId(body: Record<string, unknown>, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" || value.length === 0 || value.length > 256) throw new ProblemError("bad-request", `${field} must be a string of 1 to 256 characters`);
  return value;
}

const headerValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
