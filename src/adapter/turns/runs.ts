import type { ToolCall } from "@ag-ui/core";
import { defer, EMPTY, expand, from, ignoreElements, mergeMap, tap, throwError, type Observable } from "rxjs";
import type { Conversation } from "../../conversation";
import { AgUiFrontendToolError } from "../../errors";
import { isClientToolInterrupt } from "../../hitl";
import { randomId } from "../../internal/ids";
import { parseToolArguments } from "../../internal/toolArguments";
import type { Turn } from "./turn";
import { deliverRun, type RunDelivery, type RunRequest, type RunSignal } from "./deliverRun";
import type { FrontendTool } from "../options";
import { runInput } from "../runInput";

/** A pending call of a frontend tool, with the handler that answers it. */
interface HandledCall {
  call: ToolCall;
  messageId: string;
  handler: NonNullable<FrontendTool["handler"]>;
}

/**
 * A turn's runs: the first, then, while a run ends waiting on frontend
 * tools, the tools' answers and the follow-up run, each its own Carbon
 * response. Emits each run's signals. Once the turn has ended no further
 * run starts, and a handler still running has its result kept in the
 * thread's log (the call needs one) but starts nothing. A follow-up run is a new
 * run on the thread: no further run of an earlier stream starts after it
 * (`closeStreams`).
 *
 * ```
 * runs:   --e1       e1: the first run ended waiting on a frontend tool; h: its handler; e2: the follow-up ended
 *             h--e2|
 * result: --e1---e2|
 * ```
 */
export function turnRuns(turn: Turn, first: RunRequest, delivery: RunDelivery & { closeStreams: () => void }): Observable<RunSignal> {
  const { options } = delivery;
  // A run of ours that finished (not one rejoined, or given as events: `input` does not name it) is followed on the tool server.
  const play = (request: RunRequest) =>
    deliverRun(turn, request, delivery).pipe(
      tap((signal) => {
        if (delivery.finished && !request.events && signal.kind === "run.ended" && signal.finished && signal.finished.outcome?.type !== "cancelled") delivery.finished(request.input.runId, turn);
      }),
    );
  return defer(() => {
    let rounds = 0;
    return play(first).pipe(
    expand((signal) => {
      const calls = signal.kind === "run.ended" ? handledCalls(turn.conversation, signal.finished?.outcome?.type === "success" ? signal.finished.outcome.pendingToolCallIds : undefined, options.handledTools) : [];
      if (calls.length === 0) return EMPTY;
      // Calls the person answers wait beside these: the agent goes on once they are answered, with every result.
      if (turn.conversation.pendingInterrupts.some((entry) => isClientToolInterrupt(entry.interrupt))) return from(Promise.all(calls.map((call) => answerToolCall(turn, call)))).pipe(ignoreElements());
      if (++rounds > options.maxFrontendToolRounds) {
        return throwError(() => new AgUiFrontendToolError(`The agent asked for frontend tools more than ${options.maxFrontendToolRounds} times in one turn; stopped`));
      }
      return from(Promise.all(calls.map((call) => answerToolCall(turn, call)))).pipe(
        tap(() => delivery.closeStreams()),
        mergeMap(() => play({ input: runInput(turn.conversation, options.runFields, [...turn.conversation.messages], []) })),
      );
    }),
    );
  });
}

/** The pending calls that a frontend tool handles. */
function handledCalls(conversation: Conversation, pendingToolCallIds: readonly string[] | undefined, tools: readonly FrontendTool[]): HandledCall[] {
  const calls: HandledCall[] = [];
  for (const toolCallId of pendingToolCallIds ?? []) {
    const found = conversation.findToolCall(toolCallId);
    const handler = found && tools.find((tool) => tool.name === found.call.function.name)?.handler;
    if (found && handler) calls.push({ ...found, handler });
  }
  return calls;
}

/** Runs a frontend tool and records its result in the thread's log (the run that follows shows the call with it, see `preludeOf`). */
async function answerToolCall(turn: Turn, { call, handler }: HandledCall): Promise<void> {
  const { id: toolCallId, function: fn } = call;
  let content: string;
  let error: string | undefined;
  try {
    const result = await handler(parseToolArguments(fn.arguments), { toolCallId, name: fn.name });
    content = typeof result === "string" ? result : JSON.stringify(result ?? null);
  } catch (thrown) {
    error = thrown instanceof Error ? thrown.message : String(thrown);
    content = error;
  }
  turn.thread.act({ type: "toolResult", message: { id: randomId(), role: "tool", toolCallId, content, ...(error !== undefined && { error }) } });
}
