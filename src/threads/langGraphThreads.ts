import type { BaseEvent, Interrupt, Message } from "@ag-ui/core";
import { EventType } from "@ag-ui/core";
import { Observable, type Subscriber } from "rxjs";
import { AgUiThreadServerError } from "../errors";
import { isRecord } from "../internal/isRecord";
import { titleOf, type ThreadSummary } from "../persistence/store";
import type { AgentThreads, ServerThread } from "./agentThreads";
import { statusOf, threadServerError, UnreadableThreadError } from "./threadServerError";

// Structural types of what this file uses of `@ag-ui/langgraph` 0.0.43's
// `LangGraphAgent` and of the `@langchain/langgraph-sdk` client it holds as
// `agent.client`: the main bundle imports neither.

/** A part of a LangGraph SSE stream (`runs.joinStream`). */
interface LangGraphStreamPart {
  event: string;
  data: unknown;
  id?: string;
}

/** A run as `runs.list` gives it. */
interface LangGraphRun {
  run_id: string;
  thread_id?: string;
  assistant_id?: string;
  status: string;
  created_at?: string;
  /** The in-memory server and LangGraph Platform: the run's options, `resumable` (its stream kept from the start) and `stream_mode` among them. */
  kwargs?: { resumable?: boolean; stream_mode?: string | string[] } & Record<string, unknown>;
}

/** A thread as `threads.search` gives it. */
interface LangGraphThread {
  thread_id: string;
  updated_at?: string;
  metadata?: Record<string, unknown> | null;
  values?: unknown;
}

interface LangGraphClientLike {
  threads: {
    getState(threadId: string): Promise<unknown>;
    search?(query: { metadata?: Record<string, unknown>; limit?: number; offset?: number; sortBy?: string; sortOrder?: string }): Promise<LangGraphThread[]>;
    delete?(threadId: string): Promise<unknown>;
  };
  runs?: {
    list(threadId: string, options?: { limit?: number; offset?: number }): Promise<LangGraphRun[]>;
    joinStream(threadId: string, runId: string, options?: { signal?: AbortSignal; lastEventId?: string }): AsyncIterable<LangGraphStreamPart>;
    join?(threadId: string, runId: string, options?: { signal?: AbortSignal }): Promise<unknown>;
    cancel(threadId: string, runId: string): Promise<unknown>;
  };
  assistants?: {
    getGraph?(assistantId: string): Promise<unknown>;
  };
}

/** What of `LangGraphAgent` this file reads (the rest of its client, `search`, `delete` and `runs`, is looked for when used). */
export interface LangGraphAgentLike {
  client: { threads: { getState(threadId: string): Promise<unknown> } };
  graphId?: string;
  clone?(): unknown;
}

/** The agent, with its client as this file reads it. */
interface ReadAgent {
  client: LangGraphClientLike;
  graphId?: string;
  clone?(): unknown;
}

/**
 * `LangGraphAgent`'s own conversion of a LangGraph stream into AG-UI events
 * (0.0.43: `handleStreamEvents`, which its `run` calls with `runs.stream`),
 * reused on a clone so a rejoined run reads as a live one does: the same
 * message ids, steps, tool calls, snapshots, and the interrupt outcome.
 */
interface StreamConvertingAgent {
  activeRun?: unknown;
  messagesInProcess?: unknown;
  handleStreamEvents(
    stream: { streamResponse: AsyncIterable<LangGraphStreamPart>; state: unknown },
    threadId: string,
    subscriber: Subscriber<BaseEvent>,
    input: { threadId: string; runId: string; messages: []; tools: []; context: []; state: Record<string, never>; forwardedProps: Record<string, never> },
    streamModes: string[],
  ): Promise<unknown>;
}

/** The stream modes `LangGraphAgent` asks for when nothing else is said (a run's own `stream_mode` wins). */
const DEFAULT_STREAM_MODES = ["events", "values", "updates", "messages-tuple"];
/** How many threads `list` gives, the latest changed first. */
const LIST_LIMIT = 50;
/** How many of a thread's latest runs `load` looks through for the one still going. */
const RUNS_LOOKED_AT = 10;

/** Whether `agent` holds a LangGraph SDK client (`@ag-ui/langgraph`'s `LangGraphAgent`): `client.threads.getState` is a function. */
export function isLangGraphAgent(agent: unknown): boolean {
  if (!isRecord(agent) && typeof agent !== "function") return false;
  const client = (agent as { client?: unknown }).client;
  if (!isRecord(client) || !isRecord(client.threads)) return false;
  return typeof client.threads.getState === "function";
}

/**
 * The threads a LangGraph server keeps for `agent` (`@ag-ui/langgraph`'s
 * `LangGraphAgent`), read through the LangGraph SDK client it holds:
 * `load` converts the thread's state as `@ag-ui/langgraph` 0.0.43 converts
 * it at the end of a run (the MESSAGES_SNAPSHOT's messages and ids, the
 * RUN_FINISHED interrupt outcome's interrupts), and gives the run still
 * going on it, if any.
 *
 * A running run is replayed from its first event only when the server kept
 * its stream (a run created with `streamResumable: true`; for
 * `LangGraphAgent`, `forwardedProps: { streamResumable: true }`): otherwise
 * joining it would take events from the reader still on it, so `running`
 * waits for its end and gives its messages then, in a MESSAGES_SNAPSHOT.
 */
export function langGraphThreads(langGraphAgent: LangGraphAgentLike): AgentThreads {
  const agent = langGraphAgent as ReadAgent;
  const { client } = agent;
  const graphId = typeof agent.graphId === "string" ? agent.graphId : undefined;

  return {
    async load(threadId) {
      let raw: unknown;
      try {
        raw = await client.threads.getState(threadId);
      } catch (error) {
        // 400: an id that is no thread id of LangGraph's (not a UUID) names no thread either.
        if (statusOf(error) === 404 || statusOf(error) === 400) return undefined;
        throw threadServerError("load", threadId, error);
      }
      const thread = readThreadState(threadId, raw);
      const run = client.runs ? await runningRun(client.runs, threadId) : undefined;
      if (!run || !client.runs) return thread;
      const runs = client.runs;
      // The person's message the run answers, which the thread's state holds only once the run has taken it.
      const asked = askedIn(run);
      const known = asked === undefined || thread.messages.some((message) => message.id === asked.id);
      return {
        ...thread,
        ...(!known && { messages: [...thread.messages, asked] }),
        running: runStream(agent, runs, threadId, run),
        stopRunning: async () => {
          try {
            await runs.cancel(threadId, run.run_id);
          } catch (error) {
            if (statusOf(error) === 404) return;
            throw threadServerError("rejoin", threadId, error);
          }
        },
      };
    },

    async list() {
      const search = client.threads.search;
      if (typeof search !== "function") return [];
      let threads: LangGraphThread[];
      try {
        threads = await search.call(client.threads, { ...(graphId !== undefined && { metadata: { graph_id: graphId } }), limit: LIST_LIMIT, sortBy: "updated_at", sortOrder: "desc" });
      } catch (error) {
        throw threadServerError("list", undefined, error);
      }
      if (!Array.isArray(threads)) throw new AgUiThreadServerError("list", undefined, "unreadable");
      return threads.flatMap((thread): ThreadSummary[] => {
        if (!isRecord(thread) || typeof thread.thread_id !== "string") return [];
        const own = isRecord(thread.metadata) ? thread.metadata.graph_id : undefined;
        if (graphId !== undefined && own !== undefined && own !== graphId) return [];
        return [{ threadId: thread.thread_id, title: titleOfThread(thread), savedAt: isoOf(thread.updated_at) }];
      });
    },

    async remove(threadId) {
      const remove = client.threads.delete;
      if (typeof remove !== "function") return;
      try {
        await remove.call(client.threads, threadId);
      } catch (error) {
        if (statusOf(error) === 404) return;
        throw threadServerError("remove", threadId, error);
      }
    },
  };
}

// ---------------------------------------------------------------------------
// The thread's state

function readThreadState(threadId: string, raw: unknown): ServerThread {
  if (!isRecord(raw)) throw new AgUiThreadServerError("load", threadId, "unreadable");
  const values = raw.values ?? {};
  if (!isRecord(values)) throw unreadable(threadId, "its values are not an object");
  // The state as the agent's STATE_SNAPSHOT gives it after each run (its values, messages among them), so the chat's state reads the same restored as live.
  const { messages: lcMessages = [] } = values;
  const state = values;
  let messages: Message[];
  let interrupts: Interrupt[];
  try {
    messages = langChainMessagesToAgUi(lcMessages);
    interrupts = langGraphInterruptsToAgUi(raw.tasks ?? []);
  } catch (error) {
    throw unreadable(threadId, error);
  }
  return { threadId, messages, state, interrupts };
}

function unreadable(threadId: string, cause: unknown): AgUiThreadServerError {
  return new AgUiThreadServerError("load", threadId, "unreadable", undefined, { cause: cause instanceof Error ? cause : new Error(String(cause)) });
}


/**
 * LangChain messages (the thread state's JSON) as AG-UI messages, as
 * `@ag-ui/langgraph` 0.0.43's `langchainMessagesToAgui` converts them for
 * its MESSAGES_SNAPSHOT: the same ids, roles, contents (a part list: its
 * first text part; a person's parts: text and images), tool calls and
 * reasoning messages, so a history restored from here is the one a run gives.
 */
export function langChainMessagesToAgUi(messages: unknown): Message[] {
  if (!Array.isArray(messages)) throw new UnreadableThreadError("values.messages is not an array");
  const out: Message[] = [];
  messages.forEach((message: unknown, index) => {
    if (!isRecord(message) || typeof message.type !== "string") throw new UnreadableThreadError(`message ${index} is not a LangChain message`);
    if (typeof message.id !== "string") throw new UnreadableThreadError(`message ${index} has no id`);
    const { id, content } = message;
    if (content !== undefined && content !== null && typeof content !== "string" && !Array.isArray(content)) throw new UnreadableThreadError(`message ${index}'s content is neither text nor parts`);
    switch (message.type) {
      case "human":
        out.push({ id, role: "user", content: Array.isArray(content) ? (multimodalToAgUi(content) as Extract<Message, { role: "user" }>["content"]) : stringifyIfNeeded(textOfContent(content)) });
        break;
      case "ai":
      case "generic": {
        if (Array.isArray(content)) {
          content.forEach((block: unknown, blockIndex) => {
            const reasoning = reasoningMessageOf(block, id, blockIndex);
            if (reasoning) out.push(reasoning);
          });
        }
        const text = textOfContent(content);
        const toolCalls = message.tool_calls;
        if (toolCalls !== undefined && toolCalls !== null && !Array.isArray(toolCalls)) throw new UnreadableThreadError(`message ${index}'s tool_calls is not an array`);
        out.push({
          id,
          role: "assistant",
          content: text ? stringifyIfNeeded(text) : "",
          ...(Array.isArray(toolCalls) && {
            toolCalls: toolCalls.map((call: unknown) => {
              if (!isRecord(call) || typeof call.name !== "string") throw new UnreadableThreadError(`message ${index} has a tool call without a name`);
              return { id: String(call.id), type: "function" as const, function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) } };
            }),
          }),
        });
        break;
      }
      case "system":
        out.push({ id, role: "system", content: stringifyIfNeeded(textOfContent(content)) });
        break;
      case "tool":
        out.push({
          id,
          role: "tool",
          content: stringifyIfNeeded(textOfContent(content)),
          toolCallId: String(message.tool_call_id),
          ...(message.status === "error" && { error: "error" }),
        });
        break;
      default:
        throw new UnreadableThreadError(`message ${index} is of a type AG-UI has no role for: ${message.type.slice(0, 40)}`);
    }
  });
  return out;
}

/** `resolveMessageContent`: the text, or a part list's first text part's, or null. */
function textOfContent(content: unknown): string | null {
  if (!content) return null;
  if (typeof content === "string") return content;
  if (Array.isArray(content) && content.length > 0) {
    const part: unknown = content.find((candidate: unknown) => isRecord(candidate) && candidate.type === "text");
    const text = isRecord(part) ? part.text : undefined;
    return text === undefined || text === null ? null : (text as string);
  }
  return null;
}

function stringifyIfNeeded(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? "");
}

/** `convertLangchainMultimodalToAgui`: text parts, and `image_url` parts as images (by data or URL). */
function multimodalToAgUi(content: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const item of content) {
    if (!isRecord(item)) continue;
    if (item.type === "text" && item.text) {
      out.push({ type: "text", text: item.text });
    } else if (item.type === "image_url") {
      const imageUrl: unknown = typeof item.image_url === "string" ? item.image_url : isRecord(item.image_url) ? item.image_url.url : undefined;
      if (typeof imageUrl !== "string" || !imageUrl) continue;
      if (imageUrl.startsWith("data:")) {
        const [header = "", data] = imageUrl.split(",", 2);
        const mimeType = header.includes(":") ? (header.split(":")[1] ?? "").split(";")[0] : "image/png";
        out.push({ type: "image", source: { type: "data", value: data || "", mimeType } });
      } else {
        out.push({ type: "image", source: { type: "url", value: imageUrl } });
      }
    }
  }
  return out;
}

/** `reasoningBlockToAguiMessage`: a `reasoning` content block as a reasoning message (null when wholly empty). */
function reasoningMessageOf(block: unknown, assistantId: string, index: number): Message | null {
  if (!isRecord(block) || block.type !== "reasoning") return null;
  let text = "";
  const summary = Array.isArray(block.summary) ? block.summary.map((entry: unknown) => (isRecord(entry) ? entry.text : undefined)).filter((part): part is string => Boolean(part)) : [];
  if (summary.length > 0) text = summary.join("\n");
  else text = ((block.reasoning ?? block.text ?? "") as string) || "";
  const encrypted = block.encrypted_content;
  if (!block.id && !text && !encrypted) return null;
  return { id: String(block.id ?? `${assistantId}-reasoning-${index}`), role: "reasoning", content: text, ...(typeof encrypted === "string" && encrypted && { encryptedValue: encrypted }) } as Message;
}

/**
 * The pending interrupts of the thread's tasks, as `@ag-ui/langgraph` 0.0.43
 * gives them in its RUN_FINISHED interrupt outcome (`langGraphInterruptToAGUI`):
 * a resume with their ids reaches the waiting nodes.
 */
export function langGraphInterruptsToAgUi(tasks: unknown): Interrupt[] {
  if (!Array.isArray(tasks)) throw new UnreadableThreadError("tasks is not an array");
  const list = tasks.flatMap((task: unknown) => {
    const interrupts = isRecord(task) ? (task.interrupts ?? []) : [];
    if (!Array.isArray(interrupts)) throw new UnreadableThreadError("a task's interrupts is not an array");
    return interrupts as unknown[];
  });
  return list.map((lg) => {
    if (!isRecord(lg) || !lg.id) throw new UnreadableThreadError("a LangGraph interrupt has no id");
    const raw = lg.value;
    const dict = isRecord(raw) ? raw : null;
    const message = typeof raw === "string" ? raw : dict?.message;
    const toolCallId = dict?.toolCallId ?? dict?.tool_call_id;
    const responseSchema = dict?.responseSchema ?? dict?.response_schema;
    const expiresAt = dict?.expiresAt ?? dict?.expires_at;
    return {
      id: lg.id as string,
      reason: (dict?.reason ?? "langgraph:interrupt") as string,
      ...(message !== undefined && { message: message as string }),
      ...(toolCallId !== undefined && { toolCallId: toolCallId as string }),
      ...(responseSchema !== undefined && { responseSchema: responseSchema as Record<string, unknown> }),
      ...(expiresAt !== undefined && { expiresAt: expiresAt as string }),
      metadata: { langgraph: { raw, ns: lg.ns, resumable: lg.resumable, when: lg.when } },
    } as Interrupt;
  });
}

function titleOfThread(thread: LangGraphThread): string {
  const title = isRecord(thread.metadata) ? thread.metadata.title : undefined;
  if (typeof title === "string") return titleOf(title);
  const messages = isRecord(thread.values) ? thread.values.messages : undefined;
  if (!Array.isArray(messages)) return "";
  const first: unknown = messages.find((message: unknown) => isRecord(message) && message.type === "human");
  if (!isRecord(first)) return "";
  const { content } = first;
  const text =
    typeof content === "string"
      ? content
      : Array.isArray(content)
        ? content
            .map((part: unknown) => (isRecord(part) && part.type === "text" && typeof part.text === "string" ? part.text : ""))
            .filter(Boolean)
            .join(" ")
        : "";
  return titleOf(text);
}

function isoOf(time: unknown): string {
  if (typeof time !== "string") return new Date(0).toISOString();
  const date = new Date(time);
  return Number.isNaN(date.getTime()) ? time : date.toISOString();
}

// ---------------------------------------------------------------------------
// The run still going

/** The last message of the person's in the run's input, when it has an id to match it by. */
function askedIn(run: LangGraphRun): Message | undefined {
  const given = (run.kwargs?.input as { messages?: unknown } | undefined)?.messages;
  const last = Array.isArray(given) ? given.filter((message) => isRecord(message) && message.type === "human" && typeof message.id === "string").at(-1) : undefined;
  return last === undefined ? undefined : langChainMessagesToAgUi([last])[0];
}

/** The thread's run still going (running, else the first pending), if any. */
async function runningRun(runs: NonNullable<LangGraphClientLike["runs"]>, threadId: string): Promise<LangGraphRun | undefined> {
  let list: LangGraphRun[];
  try {
    list = await runs.list(threadId, { limit: RUNS_LOOKED_AT });
  } catch (error) {
    throw threadServerError("load", threadId, error);
  }
  if (!Array.isArray(list)) throw new AgUiThreadServerError("load", threadId, "unreadable");
  const live = list.filter((run) => isRecord(run) && typeof run.run_id === "string");
  return live.find((run) => run.status === "running") ?? live.filter((run) => run.status === "pending").at(-1);
}

/**
 * The run's AG-UI events from its start, live until it ends. A resumable
 * run's stream is joined from its first event (`Last-Event-ID: -1`) and
 * converted by the agent's own `handleStreamEvents` on a clone; any other
 * is waited for, then given as the end of a run gives it.
 */
function runStream(agent: ReadAgent, runs: NonNullable<LangGraphClientLike["runs"]>, threadId: string, run: LangGraphRun): Observable<BaseEvent> {
  const converter = run.kwargs?.resumable === true ? streamConverter(agent) : undefined;
  return new Observable<BaseEvent>((subscriber) => {
    const abort = new AbortController();
    const fail = (error: unknown) => {
      if (!abort.signal.aborted) subscriber.error(threadServerError("rejoin", threadId, error));
    };
    const relay = new Observable<BaseEvent>((inner) => {
      if (converter) void joinConverted(agent, converter, runs, threadId, run, abort.signal, inner).catch((error: unknown) => inner.error(error));
      else void waitForEnd(agent.client, runs, threadId, run, abort.signal, inner).catch((error: unknown) => inner.error(error));
    });
    const subscription = relay.subscribe({ next: (event) => subscriber.next(event), error: fail, complete: () => subscriber.complete() });
    return () => {
      abort.abort();
      subscription.unsubscribe();
    };
  });
}

/** A fresh clone of the agent that converts LangGraph streams, when it has `LangGraphAgent`'s `handleStreamEvents`. */
function streamConverter(agent: ReadAgent): (() => StreamConvertingAgent) | undefined {
  if (typeof agent.clone !== "function") return undefined;
  const probe = agent as unknown as Partial<StreamConvertingAgent>;
  if (typeof probe.handleStreamEvents !== "function") return undefined;
  return () => agent.clone?.() as StreamConvertingAgent;
}

async function joinConverted(
  agent: ReadAgent,
  converter: () => StreamConvertingAgent,
  runs: NonNullable<LangGraphClientLike["runs"]>,
  threadId: string,
  run: LangGraphRun,
  signal: AbortSignal,
  subscriber: Subscriber<BaseEvent>,
): Promise<void> {
  const clone = converter();
  const graphInfo = run.assistant_id && agent.client.assistants?.getGraph ? await agent.client.assistants.getGraph(run.assistant_id).catch(() => undefined) : undefined;
  const state = await agent.client.threads.getState(threadId);
  if (signal.aborted) return;
  // What `runAgentStream` sets before it hands a stream to `handleStreamEvents`.
  clone.activeRun = { id: run.run_id, threadId, hasFunctionStreaming: false, modelMadeToolCall: false, usage: [], ...(graphInfo !== undefined && { graphInfo }) };
  clone.messagesInProcess = {};
  const modes = run.kwargs?.stream_mode;
  const streamModes = Array.isArray(modes) ? modes : typeof modes === "string" ? [modes] : DEFAULT_STREAM_MODES;
  const streamResponse = runs.joinStream(threadId, run.run_id, { signal, lastEventId: "-1" });
  await clone.handleStreamEvents({ streamResponse, state }, threadId, subscriber, { threadId, runId: run.run_id, messages: [], tools: [], context: [], state: {}, forwardedProps: {} }, streamModes);
}

/** A run whose stream was not kept: its end, as `@ag-ui/langgraph` ends a run (state, messages, RUN_FINISHED with the interrupts). */
async function waitForEnd(client: LangGraphClientLike, runs: NonNullable<LangGraphClientLike["runs"]>, threadId: string, run: LangGraphRun, signal: AbortSignal, subscriber: Subscriber<BaseEvent>): Promise<void> {
  subscriber.next({ type: EventType.RUN_STARTED, threadId, runId: run.run_id } as BaseEvent);
  if (typeof runs.join === "function") await runs.join(threadId, run.run_id, { signal });
  else for await (const part of runs.joinStream(threadId, run.run_id, { signal })) void part;
  if (signal.aborted) return;
  const raw = await client.threads.getState(threadId);
  const thread = readThreadState(threadId, raw);
  // As `@ag-ui/langgraph` snapshots the state at a run's end: the values, messages among them.
  subscriber.next({ type: EventType.STATE_SNAPSHOT, snapshot: (raw as { values?: unknown }).values ?? {} } as BaseEvent);
  subscriber.next({ type: EventType.MESSAGES_SNAPSHOT, messages: thread.messages } as BaseEvent);
  subscriber.next({ type: EventType.RUN_FINISHED, threadId, runId: run.run_id, ...(thread.interrupts.length > 0 && { outcome: { type: "interrupt", interrupts: thread.interrupts } }) } as BaseEvent);
  subscriber.complete();
}
