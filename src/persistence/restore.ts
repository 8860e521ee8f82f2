import type { CarbonChainOfThoughtStep, CarbonItem, CarbonMessageOptions } from "../carbon";
import { AgUiInvalidItemError } from "../errors";
import { carbonItemProblems } from "../itemAllowlist";
import { neutralizeAnywhere } from "../internal/markdownHtml";
import { warnSkippedItem } from "../internal/warnings";
import { escapeItem, escapeMessageOptions } from "../operators/render/escapeHtml";
import { OPTIONS_CARRIER_ID } from "../operators/render/toStreamChunks";
import type { CarbonItemsOptions } from "../operators/map/carbonItems";
import type { TranscriptEntry, TranscriptFeedback, TranscriptResponse } from "./transcript";

/** A restored message of the person: Carbon's `MessageRequest`, as history. */
export interface CarbonHistoryRequest {
  id: string;
  input: { text: string; message_type: "text" };
  history: { timestamp: number };
}

/** A restored answer: Carbon's `MessageResponse`, as history. */
export interface CarbonHistoryResponse {
  id: string;
  request_id?: string;
  output: { generic: CarbonItem[] };
  message_options?: CarbonMessageOptions;
  history: { timestamp: number; error_state?: number; feedback?: Record<string, TranscriptFeedback> };
}

/** Carbon's `HistoryItem`: what `customLoadHistory` returns and `insertHistory` takes. */
export interface CarbonHistoryItem {
  message: CarbonHistoryRequest | CarbonHistoryResponse;
  /** ISO 8601. */
  time: string;
}

/** As live answers are checked and shown (`onInvalidItem` hears of a stored item Carbon could not render or the URL policy refuses; it is left out). */
export interface RestoreOptions extends CarbonItemsOptions {
  /** As `agUiToCarbon`'s `html`: `true` lets the agent's HTML through, for an agent you trust as your own page. Default `false`. */
  html?: boolean;
}

/**
 * The chat as it was, for Carbon's `customLoadHistory` (or `insertHistory`):
 * each request, and each answer with its items, chain of thought (steps with
 * their status), reasoning, "Response stopped" marks, failure and feedback.
 *
 * A snapshot is the agent's output kept in storage anyone on the page can
 * write: every item is checked again against the item allowlist and the URL
 * policy (refused ones go to `onInvalidItem`), and text goes through the
 * same HTML escaping as live text. An answer saved while it streamed shows
 * as stopped: its last item says "Response stopped", its steps still
 * processing show failure. An answer keeps at least one item (Carbon shows
 * nothing, reasoning included, of a response with none); one that showed
 * nothing at all is left out.
 */
export function historyItemsOf(transcript: readonly TranscriptEntry[], options: RestoreOptions = {}): CarbonHistoryItem[] {
  const history: CarbonHistoryItem[] = [];
  for (const entry of transcript) {
    const timestamp = Date.parse(entry.time);
    // A decision shows in its card, not as a message.
    if (entry.kind === "decision") continue;
    if (entry.kind === "request") {
      history.push({ message: { id: entry.id, input: { text: entry.text, message_type: "text" }, history: { timestamp } }, time: entry.time });
      continue;
    }
    const response = restoredResponse(entry, timestamp, options);
    if (response) history.push({ message: response, time: entry.time });
  }
  return history;
}

function restoredResponse(entry: TranscriptResponse, timestamp: number, options: RestoreOptions): CarbonHistoryResponse | undefined {
  const { html = false, onInvalidItem = warnSkippedItem, ...policy } = options;
  const items = entry.items.flatMap((item, index) => {
    const problems = carbonItemProblems(item, `item ${index}`, policy);
    if (problems.length > 0) {
      onInvalidItem(item, new AgUiInvalidItemError(problems));
      return [];
    }
    return [html ? item : escapeStoredItem(item)];
  });
  let messageOptions = entry.messageOptions && (html ? entry.messageOptions : escapeMessageOptions(entry.messageOptions));
  if (entry.unfinished) {
    const last = items.at(-1);
    if (last && !items.some((item) => item.streaming_metadata?.stream_stopped)) {
      items[items.length - 1] = { ...last, streaming_metadata: { id: last.streaming_metadata?.id ?? `${entry.id}-stopped`, stream_stopped: true } };
    }
    if (messageOptions?.chain_of_thought) messageOptions = { ...messageOptions, chain_of_thought: messageOptions.chain_of_thought.map(settled) };
  }
  if (items.length === 0) {
    if (!messageOptions) return undefined;
    items.push({ response_type: "text", text: "", streaming_metadata: { id: OPTIONS_CARRIER_ID, ...(entry.unfinished && { stream_stopped: true }) } });
  }
  return {
    id: entry.id,
    ...(entry.requestId !== undefined && { request_id: entry.requestId }),
    output: { generic: items },
    ...(messageOptions && { message_options: messageOptions }),
    history: {
      timestamp,
      ...(entry.errorState !== undefined && { error_state: entry.errorState }),
      ...(entry.feedback && { feedback: entry.feedback }),
    },
  };
}

/**
 * An item's markdown escaped as live text is. An inline error's words were
 * made inert when the answer failed; they are made so again (the marks
 * dropped first, so they do not pile up), as the stored copy may be anyone's.
 */
function escapeStoredItem(item: CarbonItem): CarbonItem {
  if (item.response_type !== "inline_error" || typeof item.text !== "string") return escapeItem(item);
  return { ...item, text: neutralizeAnywhere(item.text.replaceAll("\u2060", "")) };
}

/** A step the reload cut while it was processing: it did not finish. */
function settled(step: CarbonChainOfThoughtStep): CarbonChainOfThoughtStep {
  return step.status === "processing" ? { ...step, status: "failure" } : step;
}

/** What the chat shows when a conversation could not be restored: `text` says why in one line (the error goes to `onError`). */
export function notRestoredNotice(time: string, text = "The saved conversation could not be restored, so a new one has started."): CarbonHistoryItem {
  return {
    message: { id: `not-restored-${Date.parse(time)}`, output: { generic: [{ response_type: "inline_error", text, streaming_metadata: { id: "not-restored" } }] }, history: { timestamp: Date.parse(time) } },
    time,
  };
}

/** A chat cut before its last `turns` turns (a turn begins with the person's request): what to show now, and what comes before it. */
export function splitAtTurns(chat: readonly CarbonHistoryItem[], turns: number): { earlier: CarbonHistoryItem[]; later: CarbonHistoryItem[] } {
  let cut = chat.length;
  for (let seen = 0; cut > 0 && seen < turns; ) if ("input" in chat[--cut]!.message) seen++;
  // Fewer turns than asked for: all of it, whatever comes before the first request too.
  if (!chat.slice(0, cut).some((item) => "input" in item.message)) cut = 0;
  return { earlier: chat.slice(0, cut), later: chat.slice(cut) };
}
