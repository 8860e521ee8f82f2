import { EventType, type BaseEvent, type Message, type RunFinishedEvent } from "@ag-ui/core";
import { defer, identity, mergeMap, type MonoTypeOperatorFunction } from "rxjs";
import { HANDOFF, handoffOwners, SUPERVISOR } from "../../internal/handoffOwners";
import { isRecord } from "../../internal/isRecord";

/** How a multi-agent graph's workers show, as the Python `ag_ui_langgraph` bridge names it (`subagent_visibility`). */
export type SubagentVisibility = "inline" | "attributed" | "hidden";

export interface LangGraphSubagentsOptions {
  /**
   * `attributed` (the default): each worker's invocation is an AG-UI
   * subagent (SUBAGENT_STARTED / FINISHED around it, its events carrying its
   * `subagentRunId`), so its words and calls show as its own step and the
   * supervisor's words are the answer; `hidden`: the workers' events are
   * dropped (the invocations still start and finish); `inline`: the stream as
   * the bridge sends it.
   */
  visibility?: SubagentVisibility;
  /** The supervisor's node name (`createSupervisor`'s `supervisorName`). Default `"supervisor"`. */
  supervisor?: string;
}

/** Events a worker makes: they carry its `subagentRunId` (or, hidden, are dropped). */
const WORKER_EVENTS = new Set<string>([
  EventType.TEXT_MESSAGE_START,
  EventType.TEXT_MESSAGE_CONTENT,
  EventType.TEXT_MESSAGE_END,
  EventType.TOOL_CALL_START,
  EventType.TOOL_CALL_ARGS,
  EventType.TOOL_CALL_END,
  EventType.TOOL_CALL_RESULT,
  EventType.REASONING_START,
  EventType.REASONING_MESSAGE_START,
  EventType.REASONING_MESSAGE_CONTENT,
  EventType.REASONING_MESSAGE_END,
  EventType.REASONING_END,
]);

/**
 * The namespace of a LangGraph event that says who speaks (a RAW event's, or
 * the `rawEvent` an event of `@ag-ui/langgraph` was made from): a
 * model's or a tool's event (`on_chat_model_*`, `on_tool_*`), its metadata's
 * `langgraph_checkpoint_ns` when it is a subgraph's (`node:id|…`). A chain's
 * events are not read: the end of a parent's chain can come after a child
 * began.
 */
function namespaceOf(event: BaseEvent): string | undefined {
  // A RAW event's LangGraph event, or the one an event of the bridge's was made from (its rawEvent).
  const raw = event.type === EventType.RAW ? (event as { event?: unknown }).event : event.rawEvent;
  if (!isRecord(raw) || typeof raw.event !== "string" || !/^on_(chat_model|tool)_/.test(raw.event)) return undefined;
  const namespace = isRecord(raw.metadata) ? raw.metadata.langgraph_checkpoint_ns : undefined;
  return typeof namespace === "string" && namespace.includes("|") ? namespace : undefined;
}


/**
 * Attributes a LangGraph supervisor's stream (`@langchain/langgraph-supervisor`
 * through `@ag-ui/langgraph`, which emits no SUBAGENT_* events) to AG-UI 1.0's
 * subagents, from what the stream does say: the namespace of the RAW
 * events of its models and tools (`researcher:<id>|agent:<id>`: a worker's
 * subgraph, once the supervisor has run). A worker's invocation starts at its first event (under the handoff
 * call `transfer_to_<worker>` the supervisor made, when it made one) and
 * finishes when the supervisor speaks again, or at the run's end (waiting,
 * `suspended`, when the run ends on interrupts: they are the worker's). Its
 * text, reasoning and calls carry its `subagentRunId`; so do its messages in
 * a MESSAGES_SNAPSHOT, and the handoff back to the supervisor there ("Transferring
 * back to supervisor"), which is never streamed: the supervisor's own words
 * are the answer. A run that begins inside a worker (the resume of an
 * interrupt it raised) goes on under the handoff the state's messages show
 * the supervisor made to it. A graph with no supervisor (a swarm, a plain
 * subgraph) passes as it is.
 *
 * ```
 * source: --n--t--s--a--|    n: RAW from researcher:r1|agent:x; t: TEXT_MESSAGE_START m1; s: RAW from supervisor:s2|agent:y; a: TEXT_MESSAGE_START m2
 * result: --(nS)-t'-(Fs)-a-|  S: SUBAGENT_STARTED researcher:r1; t': t with subagentRunId researcher:r1; F: SUBAGENT_FINISHED researcher:r1
 * ```
 */
export function langGraphSubagents(options: LangGraphSubagentsOptions = {}): MonoTypeOperatorFunction<BaseEvent> {
  const { visibility = "attributed", supervisor = SUPERVISOR } = options;
  if (visibility === "inline") return identity;
  return (source) =>
    defer(() => {
      let supervised = false;
      let open: string | undefined;
      /** The namespace of the invocation open (`node:checkpoint`). */
      let openKey: string | undefined;
      /** The handoff call the supervisor made to each worker, not yet taken up. */
      const handoffs = new Map<string, string>();
      /** Whose each message and call of a worker is. */
      const owners = new Map<string, string>();

      const finish = (out: BaseEvent[], outcome?: { type: "suspended"; interruptIds: string[] }) => {
        if (open === undefined) return;
        out.push({ type: EventType.SUBAGENT_FINISHED, subagentRunId: open, ...(outcome && { outcome }) } as BaseEvent);
        open = openKey = undefined;
      };
      const enter = (out: BaseEvent[], namespace: string) => {
        const [node = "", checkpoint = ""] = (namespace.split("|")[0] ?? "").split(":");
        if (node === supervisor) {
          supervised = true;
          return finish(out);
        }
        const key = `${node}:${checkpoint}`;
        if (!supervised || key === openKey) return;
        finish(out);
        // Named after the handoff that started it, as the snapshot names it (a snapshot can hold its messages ahead of its stream).
        const parentToolCallId = handoffs.get(node);
        handoffs.delete(node);
        openKey = key;
        open = parentToolCallId === undefined ? key : `${node}:${parentToolCallId}`;
        out.push({ type: EventType.SUBAGENT_STARTED, subagentRunId: open, name: node, ...(parentToolCallId !== undefined && { parentToolCallId }) } as BaseEvent);
      };
      /**
       * The snapshot's messages, the turn's workers' with their `subagentRunId`: those streamed under one, and, read from
       * the snapshot's own order, what follows a handoff's result (`transfer_to_<worker>`) up to the worker's handoff
       * back and its result (a snapshot can hold a worker's messages ahead of their stream). Earlier turns' are left as
       * they are.
       */
      const attributed = (messages: readonly Message[]): Message[] => {
        const turn = messages.map((message) => message.role).lastIndexOf("user") + 1;
        const byOrder = handoffOwners(messages.slice(turn)).owners;
        return messages.map((message, index) => {
          if (index < turn || message.role === "system" || message.role === "developer" || message.role === "user") return message;
          const owner = owners.get(message.id) ?? (message.role === "tool" ? owners.get(message.toolCallId) : undefined) ?? byOrder[index - turn];
          return owner === undefined ? message : ({ ...message, subagentRunId: owner } as Message);
        });
      };
      /**
       * A run that begins inside a worker (a resume where it asked) streams the worker before the supervisor speaks:
       * the state's LangChain messages (they keep who spoke, as `name`) say the supervisor handed the turn to it. The
       * worker goes on under that handoff. Whether it has handed the turn back by then says nothing: the bridge reads
       * the state while the run goes on, so a fast worker may have finished by the time it is read.
       */
      const resumedIn = (snapshot: unknown) => {
        const messages = isRecord(snapshot) && Array.isArray(snapshot.messages) ? (snapshot.messages as unknown[]).filter(isRecord) : [];
        const turn = messages.slice(messages.map((message) => message.type).lastIndexOf("human") + 1);
        const calls = (message: Record<string, unknown>) => (Array.isArray(message.tool_calls) ? (message.tool_calls as unknown[]).filter(isRecord) : []);
        const at = turn.map((message) => message.name === supervisor && calls(message).some((call) => String(call.name).startsWith(HANDOFF))).lastIndexOf(true);
        if (at < 0) return;
        supervised = true;
        for (const call of calls(turn[at]!)) if (String(call.name).startsWith(HANDOFF)) handoffs.set(String(call.name).slice(HANDOFF.length), String(call.id));
      };
      /** What `event` comes out as: the invocations it starts or ends, then itself as the worker's (or nothing, hidden). */
      const step = (event: BaseEvent): BaseEvent[] => {
        const out: BaseEvent[] = [];
        if (event.type === EventType.STATE_SNAPSHOT && !supervised) resumedIn((event as { snapshot?: unknown }).snapshot);
        const namespace = namespaceOf(event);
        if (namespace !== undefined) enter(out, namespace);
        if (event.type === EventType.MESSAGES_SNAPSHOT && supervised) {
          out.push({ ...event, messages: attributed((event as unknown as { messages: Message[] }).messages) } as BaseEvent);
          return out;
        }
        if (event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR) {
          const outcome = (event as RunFinishedEvent).outcome;
          if (open !== undefined && outcome?.type === "interrupt") {
            const asker = open;
            finish(out, { type: "suspended", interruptIds: outcome.interrupts.map((interrupt) => interrupt.id) });
            out.push({ ...event, outcome: { ...outcome, interrupts: outcome.interrupts.map((interrupt) => ({ subagentRunId: asker, ...interrupt })) } } as BaseEvent);
            return out;
          }
          finish(out);
          out.push(event);
          return out;
        }
        if (event.type === EventType.TOOL_CALL_START && open === undefined) {
          const name = (event as unknown as { toolCallName: string }).toolCallName;
          if (name.startsWith(HANDOFF)) handoffs.set(name.slice(HANDOFF.length), (event as unknown as { toolCallId: string }).toolCallId);
        }
        if (open === undefined || !WORKER_EVENTS.has(event.type)) {
          out.push(event);
          return out;
        }
        const { messageId, toolCallId, parentMessageId } = event as { messageId?: string; toolCallId?: string; parentMessageId?: string };
        if (messageId !== undefined && event.type !== EventType.TOOL_CALL_RESULT) owners.set(messageId, open);
        if (toolCallId !== undefined) owners.set(toolCallId, open);
        if (parentMessageId !== undefined) owners.set(parentMessageId, open);
        if (visibility !== "hidden") out.push({ ...event, subagentRunId: open } as BaseEvent);
        return out;
      };
      return source.pipe(mergeMap(step));
    });
}
