/**
 * The long run `npm run bench` times (bench/pipeline.bench.ts, bench/ab.bench.ts):
 * 50 answers of 2,000 text deltas, a state delta every 100, as explicit
 * events or as *_CHUNK events; the message that asks for it; and the check
 * that an adapter handed Carbon the whole answer.
 */
import { EventType, type BaseEvent } from "@ag-ui/core";
import type { CarbonStreamChunk } from "../src/carbon";
import type { CarbonRecorder } from "../src/testing/recorder";

export const MESSAGES = 50;
export const DELTAS_PER_MESSAGE = 2_000;
export const STATE_DELTA_EVERY = 100;

/** One run: `messages` answers of `deltasPerMessage` deltas of `deltaText(index)`; as explicit events or as *_CHUNK events. */
export function makeRun(messages: number, deltasPerMessage: number, deltaText: (index: number) => string, chunks = false): BaseEvent[] {
  // The state the deltas change starts with a snapshot, as an agent sends it.
  const events: BaseEvent[] = [{ type: EventType.RUN_STARTED, threadId: "t", runId: "r" }, { type: EventType.STATE_SNAPSHOT, snapshot: { progress: 0 } }];
  for (let message = 0; message < messages; message++) {
    const messageId = `msg-${message}`;
    if (!chunks) events.push({ type: EventType.TEXT_MESSAGE_START, messageId, role: "assistant" });
    for (let delta = 0; delta < deltasPerMessage; delta++) {
      const text = deltaText(delta);
      events.push(chunks ? { type: EventType.TEXT_MESSAGE_CHUNK, messageId, delta: text } : { type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: text });
      if (delta % STATE_DELTA_EVERY === 0) {
        events.push({ type: EventType.STATE_DELTA, delta: [{ op: "replace", path: "/progress", value: delta }] });
      }
    }
    if (!chunks) events.push({ type: EventType.TEXT_MESSAGE_END, messageId });
  }
  events.push({ type: EventType.RUN_FINISHED, threadId: "t", runId: "r" });
  return events;
}

export const token = (index: number) => `token ${index} `;

/** The bench's long run: MESSAGES × DELTAS_PER_MESSAGE deltas of `token(index)`. */
export const longRun = (chunks = false) => makeRun(MESSAGES, DELTAS_PER_MESSAGE, token, chunks);

/** The message whose answer the adapters stream. */
export const request = { id: "u-bench", input: { text: "Tell me a long story" } };

/** The text of the final response's text items: what the person reads once the answer has ended. */
function answerText(carbon: CarbonRecorder): string {
  const finals = carbon.chunks.filter((chunk): chunk is Extract<CarbonStreamChunk, { final_response: unknown }> => "final_response" in chunk);
  return finals.flatMap((chunk) => chunk.final_response.output.generic.flatMap((item) => (item.response_type === "text" ? [String(item.text)] : []))).join("");
}

/** Checks that an adapter delivered the whole answer of `longRun()` (or its time means nothing), and says in how many chunks. */
export function delivered(name: string, carbon: CarbonRecorder): string {
  const wholeAnswer = Array.from({ length: MESSAGES }, () => Array.from({ length: DELTAS_PER_MESSAGE }, (_, index) => token(index)).join("")).join("");
  if (answerText(carbon) !== wholeAnswer || carbon.waitingForFinal.length > 0) throw new Error(`${name} did not deliver the whole answer to Carbon: the bench is wrong`);
  return `${name} ${carbon.chunks.length}`;
}
