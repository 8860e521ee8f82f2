/**
 * `npm run bench` (second part): a run's events through `ToolClient.events$`
 * — fetch body, our byte-level parser, JSON, replay window, Observable —
 * against `eventsource-parser` alone (plus JSON.parse) on the same bytes,
 * served from memory in 64 KiB chunks. Not a test: figures vary by machine.
 */
import { createParser } from "eventsource-parser";
import { lastValueFrom, count } from "rxjs";
import { createEventStreamParser } from "../src/internal/eventStream";
import { ToolClient } from "../src/tool-client";

const EVENTS = 200_000;
const CHUNK = 64 * 1024;
const RUNS = 5;

function makeStream(): Uint8Array[] {
  let text = "";
  for (let id = 1; id <= EVENTS; id++) {
    text += `id: ${id}\r\nevent: tool.progress\r\ndata: ${JSON.stringify({ run_id: "r1", tool: "search", call_id: `c${id % 10}`, progress: id / EVENTS })}\r\n\r\n`;
    if (id % 1_000 === 0) text += ": ping - 2026-11-30 07:00:00\r\n\r\n";
  }
  text += "id: end\r\nevent: end\r\ndata: {}\r\n\r\n";
  const bytes = new TextEncoder().encode(text);
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += CHUNK) chunks.push(bytes.subarray(offset, offset + CHUNK));
  return chunks;
}

async function timeIt(work: () => Promise<number> | number): Promise<number> {
  const samples: number[] = [];
  for (let run = 0; run < RUNS + 1; run++) {
    const start = process.hrtime.bigint();
    const delivered = await work();
    if (delivered < EVENTS) throw new Error(`only ${delivered} events`);
    if (run > 0) samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
}

async function main() {
  const chunks = makeStream();
  const bytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const fromMemory: typeof fetch = async () =>
    new Response(new ReadableStream<Uint8Array>({ start: (controller) => (chunks.forEach((chunk) => controller.enqueue(chunk)), controller.close()) }), {
      headers: { "content-type": "text/event-stream" },
    });
  const client = new ToolClient({ baseUrl: "http://127.0.0.1:1/api", fetch: fromMemory });

  const referenceMs = await timeIt(() => {
    let delivered = 0;
    const parser = createParser({ onEvent: ({ data }) => (JSON.parse(data), delivered++) });
    const decoder = new TextDecoder();
    for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
    return delivered;
  });
  const ourParserMs = await timeIt(() => {
    let delivered = 0;
    const parser = createEventStreamParser({ maxEventSize: 1 << 20, tooLarge: () => new Error("too large"), onFrame: ({ data }) => (JSON.parse(data!), delivered++) });
    for (const chunk of chunks) parser.push(chunk);
    return delivered;
  });
  const eventsMs = await timeIt(() => lastValueFrom(client.events$("r1").pipe(count())));

  const rate = (ms: number) => `${Math.round(EVENTS / (ms / 1000)).toLocaleString("en")} events/s`;
  console.log(`tool-client events: ${EVENTS.toLocaleString("en")} events, ${(bytes / 1024 / 1024).toFixed(1)} MiB, CRLF, ${CHUNK / 1024} KiB chunks (median of ${RUNS})`);
  console.log(`  eventsource-parser + JSON.parse   ${referenceMs.toFixed(0).padStart(5)} ms  ${rate(referenceMs)}`);
  console.log(`  our parser + JSON.parse           ${ourParserMs.toFixed(0).padStart(5)} ms  ${rate(ourParserMs)}  (${(ourParserMs / referenceMs).toFixed(2)}×)`);
  console.log(`  ToolClient.events$ (everything)   ${eventsMs.toFixed(0).padStart(5)} ms  ${rate(eventsMs)}  (${(eventsMs / referenceMs).toFixed(2)}×)`);
}

void main();
