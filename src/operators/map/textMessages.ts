import { EventType, type Message, type TextMessageStartEvent } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import type { PipelineElement } from "../../instructions";
import { createOperator } from "../fusion";
import { TextBuffer } from "../../internal/textBuffer";

interface OpenMessage {
  role: NonNullable<TextMessageStartEvent["role"]>;
  name?: string;
  /** The subagent invocation that says it (its START's `subagentRunId`): its words are the subagent's, not the answer's. */
  subagentRunId?: string;
  text: TextBuffer;
}

/**
 * Maps text messages to Carbon text items. Every non-empty
 * TEXT_MESSAGE_CONTENT of an assistant message becomes an `item.delta`; its
 * TEXT_MESSAGE_END becomes an `item.complete` with the whole text and a
 * `history.message`. The item id is the message id. Messages of other roles
 * (user, system, developer) go to the history only; empty messages nowhere.
 *
 * A TEXT_MESSAGE_START for a message that already ended reopens it: its
 * text goes on from where it stopped (a chunk stream split by another event
 * comes back so). Each START also holds the message's place in the history
 * (`history.reserve`), so the history keeps the order messages began in.
 *
 * A message cut short — the run stopped (`turn.end`), failed (RUN_ERROR or a
 * source error) or ended before its TEXT_MESSAGE_END — still goes to the
 * history with the text so far, so the agent's next run sees what the person
 * saw. (Its Carbon item is closed by `toStreamChunks()`.)
 *
 * A message the person has already seen (`shown`: an earlier run's, by id)
 * that a run streams again is a replay (LangGraph re-streams a subgraph's
 * words after a resume): while its text is what was seen, nothing of it
 * shows; it goes to the history as any message does. One whose text turns
 * out other than what was seen (an agent that reuses an id) shows whole
 * from there on. So does, in a resume, a message under a new id whose
 * whole text is one of `saidBeforeResume` (LangGraph runs an interrupted
 * node again from its start, and its model says the same words under a new
 * id): each of those is taken once, and one that ends short of them, or
 * turns out other, shows whole.
 *
 * A message a subagent says (its START carries `subagentRunId`) is no part
 * of the answer: it goes to the history with its `subagentRunId`, as
 * `@ag-ui/client` keeps it, and its whole text to `subagentSteps()` as
 * `subagent.said`, for the subagent's step.
 *
 * ```
 * source: --S--a--b--E--|     S: START m1; a, b: CONTENT "Hel" / "lo"; E: END m1
 * result: -----d--e--(ch)|    d, e: item.delta "Hel" / "lo"; c: item.complete "Hello"; h: history.message
 * ```
 */
export interface TextMessagesOptions {
  /** The text of the assistant messages the person has seen in earlier runs, by id: a run that streams one again replays it. Default: none. */
  shown?: ReadonlyMap<string, string>;
  /** In a resume, the words of the messages the run it resumes showed that the agent's record has dropped since (`saidBeforeResume`). Default: none. */
  saidBeforeResume?: readonly string[];
}

/** A message streamed again: the texts it may be (what was seen), how much of them came again, and whether it came under a new id (then only its whole text makes it one). */
interface Replay {
  seen: string[];
  matched: number;
  newId?: true;
}

export function textMessages(options: TextMessagesOptions = {}): MonoTypeOperatorFunction<PipelineElement> {
  const { shown } = options;
  return createOperator<PipelineElement, PipelineElement>((out) => {
    const open = new Map<string, OpenMessage>();
    /** Messages this run streams again: while their text is what was seen, nothing of them shows. */
    const replayed = new Map<string, Replay>();
    /** The words said before the resume not yet streamed again. */
    const saidBefore = [...(options.saidBeforeResume ?? [])];
    const showsText = (messageId: string, message: OpenMessage) => message.role === "assistant" && message.subagentRunId === undefined && !replayed.has(messageId);
    /** Whether a replay's text is still what was seen, `delta` added; once it is not, the message shows, its text so far at once. */
    const stillReplayed = (messageId: string, message: OpenMessage, delta: string) => {
      const replay = replayed.get(messageId);
      if (replay === undefined) return false;
      replay.seen = replay.seen.filter((seen) => seen.startsWith(delta, replay.matched));
      if (replay.seen.length > 0) {
        replay.matched += delta.length;
        return true;
      }
      replayed.delete(messageId);
      if (showsText(messageId, message)) out.next({ kind: "item.delta", itemId: messageId, item: { response_type: "text", text: message.text.toString() } });
      return true;
    };
    /** At its end, whether a message streamed again under a new id was words said before, whole (they are taken); if not, it shows. */
    const endsReplayed = (messageId: string) => {
      const replay = replayed.get(messageId);
      if (!replay?.newId) return;
      const taken = saidBefore.indexOf(replay.seen.find((seen) => seen.length === replay.matched) ?? "");
      if (taken >= 0) saidBefore.splice(taken, 1);
      else replayed.delete(messageId);
    };
    /** The messages ended so far, with their text (the string the history holds, not a copy): one may be reopened. */
    const ended = new Map<string, { role: OpenMessage["role"]; name?: string; subagentRunId?: string; text: string }>();
    /** The message, to the history; a subagent's words to its step too. */
    const keep = (messageId: string, message: Omit<OpenMessage, "text">, text: string) => {
      out.next({ kind: "history.message", message: historyMessage(messageId, message, text) });
      if (message.subagentRunId !== undefined && !replayed.has(messageId)) out.next({ kind: "subagent.said", subagentRunId: message.subagentRunId, said: "text", text });
    };

    const opened = (messageId: string) => {
      let message = open.get(messageId);
      if (!message) {
        // Content for a message never started (only without verifySequence): take it as an assistant message.
        message = { role: "assistant", text: new TextBuffer() };
        open.set(messageId, message);
      }
      return message;
    };

    /** Sends the text so far of every open message to the history. */
    const keepCutMessages = () => {
      for (const [messageId, message] of open) {
        if (!message.text.isEmpty) keep(messageId, message, message.text.toString());
      }
      open.clear();
    };

    return {
      next(element) {
        if (!("type" in element)) {
          if (element.kind === "turn.end") keepCutMessages();
          return out.next(element);
        }
        switch (element.type) {
          case EventType.TEXT_MESSAGE_START: {
            // A START for a message that ended goes on with its text, as @ag-ui/client does (a chunk stream split by another event).
            const before = ended.get(element.messageId);
            const text = new TextBuffer();
            if (before) text.append(before.text);
            const role = before?.role ?? element.role ?? "assistant";
            const name = before ? before.name : element.name;
            const subagentRunId = before ? before.subagentRunId : element.subagentRunId;
            open.set(element.messageId, { role, text, ...(name !== undefined && { name }), ...(subagentRunId !== undefined && { subagentRunId }) });
            const seen = before ? undefined : shown?.get(element.messageId);
            if (seen !== undefined) replayed.set(element.messageId, { seen: [seen], matched: 0 });
            else if (!before && role === "assistant" && saidBefore.length > 0) replayed.set(element.messageId, { seen: [...saidBefore], matched: 0, newId: true });
            if (!before) out.next({ kind: "history.reserve", messageId: element.messageId, role, ...(subagentRunId !== undefined && { subagentRunId }) });
            return;
          }
          case EventType.TEXT_MESSAGE_CONTENT: {
            const message = opened(element.messageId);
            if (element.delta === "") return;
            message.text.append(element.delta);
            if (stillReplayed(element.messageId, message, element.delta)) return;
            if (showsText(element.messageId, message)) {
              out.next({ kind: "item.delta", itemId: element.messageId, item: { response_type: "text", text: element.delta } });
            }
            return;
          }
          case EventType.TEXT_MESSAGE_END: {
            const message = opened(element.messageId);
            open.delete(element.messageId);
            if (message.text.isEmpty) return;
            endsReplayed(element.messageId);
            const text = message.text.toString();
            const { text: _buffer, ...about } = message;
            ended.set(element.messageId, { ...about, text });
            if (showsText(element.messageId, message)) {
              out.next({ kind: "item.complete", itemId: element.messageId, item: { response_type: "text", text } });
            }
            keep(element.messageId, message, text);
            return;
          }
          case EventType.RUN_ERROR:
          case EventType.RUN_FINISHED:
            keepCutMessages();
            return out.next(element);
          default:
            out.next(element);
        }
      },
      complete: keepCutMessages,
      error: keepCutMessages,
    };
  }, [EventType.TEXT_MESSAGE_START, EventType.TEXT_MESSAGE_CONTENT, EventType.TEXT_MESSAGE_END, EventType.RUN_ERROR, EventType.RUN_FINISHED, "turn.end"]);
}

function historyMessage(id: string, { role, name, subagentRunId }: Omit<OpenMessage, "text">, content: string): Message {
  return { id, role, content, ...(name !== undefined && { name }), ...(subagentRunId !== undefined && { subagentRunId }) } as Message;
}
