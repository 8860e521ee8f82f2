import { AbstractAgent, transformChunks, type AgentSubscriber } from "@ag-ui/client";
import { EventType, type BaseEvent, type Message, type RunAgentInput } from "@ag-ui/core";
import { from, Observable } from "rxjs";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { CarbonAgUiAdapter, type CarbonAgUiAdapterOptions } from "../../src/adapter";
import { applyPatchAtomically } from "../../src/internal/jsonPatch";
import { NO_TOOL_RESULT } from "../../src/operators/map/toolCallSteps";
import type { CarbonItem } from "../../src/carbon";
import { THREAD_ID, USER_MESSAGE } from "./streams";

/** What a client holds after a run: its messages (activities apart), its state and its activities by id. */
export interface ClientView {
  messages: Message[];
  state: unknown;
  activities: Record<string, { activityType: string; content: unknown }>;
}

export interface Outcome {
  /** After each RUN_FINISHED. */
  runs: ClientView[];
  /** When the stream is over. */
  end: ClientView;
}

/** Replays a fixed list of events as `@ag-ui/client`'s agent would receive them from its transport. */
class ReplayAgent extends AbstractAgent {
  constructor(private readonly events: readonly BaseEvent[]) {
    super({ threadId: THREAD_ID, initialMessages: [structuredClone(USER_MESSAGE)], initialState: {} });
  }

  run(_input: RunAgentInput): Observable<BaseEvent> {
    return new Observable((subscriber) => {
      for (const event of this.events) subscriber.next(structuredClone(event));
      subscriber.complete();
    });
  }
}

function referenceView(messages: readonly Message[], state: unknown): ClientView {
  const activities: ClientView["activities"] = {};
  for (const message of messages) {
    if (message.role === "activity") activities[message.id] = { activityType: message.activityType, content: message.content };
  }
  return { messages: structuredClone(messages.filter((message) => message.role !== "activity")) as Message[], state: structuredClone(state), activities };
}

/** The reference: `@ag-ui/client` 1.0's `runAgent()`, with its default apply, on the same events. */
export async function runReference(events: readonly BaseEvent[]): Promise<Outcome> {
  const agent = new ReplayAgent(events);
  const runs: ClientView[] = [];
  const subscriber: AgentSubscriber = {
    onRunFinishedEvent: ({ messages, state }) => void runs.push(referenceView(messages, state)),
    // Deliberate difference (docs/differences.md): a `move` or `copy` from a path that holds nothing, or a
    // move into its own child, fails the delta (RFC 6902 §4.4, §4.5), where fast-json-patch moves or copies
    // `undefined`, or makes a cycle. The reference is held to that rule for deltas with a move or a copy.
    onStateDeltaEvent: ({ event, state }) => {
      if (!event.delta.some((operation: { op: string }) => operation.op === "move" || operation.op === "copy")) return undefined;
      const { error } = applyPatchAtomically(structuredClone(state), event.delta);
      return error === undefined ? undefined : { stopPropagation: true };
    },
  };
  const quiet = jest.spyOn(console, "warn").mockImplementation(() => undefined);
  try {
    await agent.runAgent({}, subscriber);
  } finally {
    quiet.mockRestore();
  }
  return { runs, end: referenceView(agent.messages, agent.state) };
}

export interface OursOutcome extends Outcome {
  carbon: CarbonRecorder;
  /** Whether the turn was reported as completed (`sendMessage` resolved, and nothing went to `onError`). */
  completed: boolean;
  error?: unknown;
}

function ourView(adapter: CarbonAgUiAdapter): ClientView {
  const activities: ClientView["activities"] = {};
  for (const [id, activity] of adapter.activities) activities[id] = { activityType: activity.activityType, content: structuredClone(activity.content) };
  // The result we give a call its run left unanswered is a deliberate difference (docs/differences.md): not compared.
  const messages = adapter.messages.filter((message) => !(message.role === "tool" && message.content === NO_TOOL_RESULT && message.id === `${message.toolCallId}-no-result`));
  return { messages: structuredClone(messages) as Message[], state: structuredClone(adapter.state), activities };
}

/** Ours: the adapter, as Carbon drives it, with one user message whose run streams `events`. */
export async function runOurs(events: readonly BaseEvent[], options: Partial<CarbonAgUiAdapterOptions> = {}): Promise<OursOutcome> {
  const runs: ClientView[] = [];
  let error: unknown;
  // eslint-disable-next-line prefer-const -- read by the callback, set just below
  let adapter: CarbonAgUiAdapter;
  adapter = new CarbonAgUiAdapter({
    threadId: THREAD_ID,
    run: () => events.map((event) => structuredClone(event)),
    coalesce: false,
    onWarning: () => undefined,
    onInvalidEvent: () => undefined,
    onRunFinished: () => void runs.push(ourView(adapter)),
    // A card for each weather call, shown once its arguments are complete: it must keep its place among the texts.
    onToolCall: (call) => (call.name === "weather" ? { response_type: "user_defined", user_defined: { card: call.toolCallId } } : undefined),
    ...options,
    onError: (reported) => {
      error = reported;
      options.onError?.(reported);
    },
  });
  const carbon = new CarbonRecorder();
  let resolved = false;
  await adapter
    .sendMessage({ id: USER_MESSAGE.id, input: { text: USER_MESSAGE.content as string }, history: {} } as never, { signal: new AbortController().signal, silent: false } as never, carbon)
    .then(
      () => (resolved = true),
      (thrown: unknown) => (error = thrown),
    );
  // A later run of the stream is a turn of its own, played after the message's: the stream is over once every turn is.
  await adapter.whenIdle();
  // A failure the chat showed resolves the send and goes to onError: not a completed turn either.
  return { runs, end: ourView(adapter), carbon, completed: resolved && error === undefined, error };
}

const cardText = (toolCallId: string) => `[card ${toolCallId}]`;

/** The text items (and cards) of each Carbon response, in order, as Carbon's final responses hold them. */
export function carbonTexts(carbon: CarbonRecorder): string[][] {
  const shown = (item: CarbonItem) =>
    item.response_type === "user_defined" ? [cardText((item.user_defined as { card: string }).card)] : item.response_type === "text" && item.text !== "" ? [item.text as string] : [];
  return carbon.chunks
    .filter((chunk): chunk is Extract<typeof chunk, { final_response: unknown }> => "final_response" in chunk)
    .map((chunk) => chunk.final_response.output.generic.flatMap(shown));
}

/**
 * The state and each activity's content as JSON text, after every run and at
 * the end: what shows their key order, which `toEqual` does not compare.
 */
export function keyOrders(outcome: Outcome): { state: string; activities: string[] }[] {
  return [...outcome.runs, outcome.end].map((view) => ({
    state: JSON.stringify(view.state),
    activities: Object.keys(view.activities)
      .sort()
      .map((id) => `${id}: ${JSON.stringify(view.activities[id]?.content)}`),
  }));
}

/**
 * The reference's view, less what we deliberately do not keep (docs/differences.md):
 * a message with nothing in it (no text, no tool calls, no encrypted value).
 */
export function withoutEmptyMessages(view: ClientView): ClientView {
  const messages = view.messages.flatMap((message): Message[] => {
    const { content, toolCalls, encryptedValue } = message as { content?: unknown; toolCalls?: unknown[]; encryptedValue?: string };
    if (message.role === "assistant") {
      const hasCalls = (toolCalls?.length ?? 0) > 0;
      if ((content === "" || content === undefined) && !hasCalls && encryptedValue === undefined) return [];
      const copy = { ...message } as Record<string, unknown>;
      if (content === "" || content === undefined) delete copy.content;
      if (!hasCalls) delete copy.toolCalls;
      return [copy as Message];
    }
    if (message.role === "reasoning" && content === "" && encryptedValue === undefined) return [];
    return [message];
  });
  return { ...view, messages };
}

/**
 * What Carbon should show for each run: its assistant messages in the order
 * their text began (a subagent's are its step's, not the answer's), a card
 * where each weather call's arguments completed, and the messages a snapshot
 * brought. Chunks are expanded by the reference
 * client's own `transformChunks()`.
 */
export function expectedCarbonTexts(events: readonly BaseEvent[]): string[][] {
  const runs: Map<string, string>[] = [];
  const seen = new Set<string>();
  const expanded: BaseEvent[] = [];
  from(events).pipe(transformChunks()).subscribe({ next: (event) => void expanded.push(event), error: () => undefined });
  const weatherCalls = new Set<string>();
  const subagents = new Set<string>();
  for (const event of expanded as (BaseEvent & Record<string, unknown>)[]) {
    const run = runs.at(-1);
    switch (event.type) {
      case EventType.RUN_STARTED:
        runs.push(new Map());
        break;
      case EventType.TEXT_MESSAGE_START:
      case EventType.TEXT_MESSAGE_CHUNK:
      case EventType.TEXT_MESSAGE_CONTENT: {
        // An item shows in Carbon from its first text on.
        const id = event.messageId as string;
        if (event.type === EventType.TEXT_MESSAGE_START && event.subagentRunId !== undefined && !seen.has(id)) subagents.add(id);
        seen.add(id);
        if (subagents.has(id)) break;
        const delta = (event.delta as string | undefined) ?? "";
        if (delta !== "") run!.set(id, (run!.get(id) ?? "") + delta);
        break;
      }
      case EventType.TOOL_CALL_START:
        if (event.toolCallName === "weather") weatherCalls.add(event.toolCallId as string);
        break;
      case EventType.TOOL_CALL_END: {
        const id = event.toolCallId as string;
        if (weatherCalls.has(id) && !run!.has(`card:${id}`)) run!.set(`card:${id}`, cardText(id));
        break;
      }
      case EventType.MESSAGES_SNAPSHOT:
        for (const message of event.messages as Message[]) {
          if (message.role !== "assistant" || seen.has(message.id) || !message.content || message.subagentRunId !== undefined) continue;
          seen.add(message.id);
          run!.set(message.id, message.content as string);
        }
        break;
    }
  }
  return runs.map((run) => [...run.values()].filter((text) => text !== ""));
}

