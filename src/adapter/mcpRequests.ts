import { EventType, type BaseEvent, type RunAgentInput } from "@ag-ui/core";
import { filter, firstValueFrom, from, map, takeUntil, throwIfEmpty, type SchedulerLike } from "rxjs";
import { AgUiMcpAppError } from "../errors";
import { abortReason } from "../internal/abort";
import { randomId } from "../internal/ids";
import { isRecord } from "../internal/isRecord";
import type { RunAgent } from "../runners/runAgent";

/** The methods `@ag-ui/mcp-apps-middleware` proxies to an app's MCP server. */
export type McpProxiedMethod = "tools/call" | "resources/read" | "notifications/message" | "ping";

/** A request of an MCP App's for its server, as the middleware takes it in `forwardedProps.__proxiedMCPRequest`. */
export interface McpProxiedRequest {
  /** The server, as the app's activity names it (`serverId`, else `serverHash`). */
  serverId?: string;
  serverHash?: string;
  method: McpProxiedMethod;
  params?: Record<string, unknown>;
}

export interface McpRequestContext {
  threadId: string;
  /** The app whose request this is, for the error's `activityId`. */
  activityId: string;
  signal?: AbortSignal;
  scheduler?: SchedulerLike;
}

/**
 * Sends `request` to the app's MCP server through the agent: a run with no
 * messages and `forwardedProps.__proxiedMCPRequest`, which the middleware
 * answers with RUN_STARTED then RUN_FINISHED, its `result` the server's
 * answer. Nothing of it reaches the conversation. Rejects with
 * `AgUiMcpAppError` when the run fails, ends without finishing, or the
 * middleware answers `{ error }`.
 */
export async function proxiedMcpRequest(run: RunAgent, request: McpProxiedRequest, context: McpRequestContext): Promise<unknown> {
  const controller = new AbortController();
  const stop = () => controller.abort(context.signal?.reason);
  context.signal?.addEventListener("abort", stop, { once: true });
  const input: RunAgentInput = { threadId: context.threadId, runId: randomId(), messages: [], tools: [], context: [], state: {}, forwardedProps: { __proxiedMCPRequest: request } };
  const where = `${request.method} on MCP server '${request.serverId ?? request.serverHash ?? "?"}'`;
  try {
    const end = await firstValueFrom(
      from(run(input, { signal: controller.signal, ...(context.scheduler && { scheduler: context.scheduler }) })).pipe(
        filter((event: BaseEvent) => event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR),
        map((event) => event as BaseEvent & { result?: unknown; message?: string }),
        takeUntil(abortReason(controller.signal)),
        throwIfEmpty(() => new AgUiMcpAppError(`${where}: the agent's run ended without an answer`, context.activityId)),
      ),
    );
    if (end.type === EventType.RUN_ERROR) throw new AgUiMcpAppError(`${where} failed: ${end.message ?? "the run failed"}`, context.activityId);
    if (isRecord(end.result) && typeof end.result.error === "string" && Object.keys(end.result).length === 1) throw new AgUiMcpAppError(`${where} failed: ${end.result.error}`, context.activityId);
    return end.result;
  } catch (error) {
    if (context.signal?.aborted) throw new AgUiMcpAppError(`${where} was stopped: the app is gone`, context.activityId);
    if (error instanceof AgUiMcpAppError) throw error;
    throw new AgUiMcpAppError(`${where} failed: ${error instanceof Error ? error.message : String(error)}`, context.activityId);
  } finally {
    context.signal?.removeEventListener("abort", stop);
    // The run's stream is done with: a runner that keeps it open lets it go.
    controller.abort();
  }
}
