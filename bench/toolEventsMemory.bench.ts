/**
 * `npm run bench:events-memory`: the peak heap of `ToolClient.events()` while
 * the loop holds one event for 10 s and a loopback server writes events as
 * fast as it can. `events()` stops reading once `EVENTS_QUEUE_LIMIT` events
 * wait, so the heap should stay flat while TCP holds the server back. Not a
 * test: figures vary by machine (the spec in spec/tool-client/hostile checks
 * the server is held back).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { EVENTS_QUEUE_LIMIT } from "../src/tool-client/client";
import { ToolClient } from "../src/tool-client";

const PAUSE_MS = 10_000;
const SAMPLE_MS = 50;
const MiB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const gc = (globalThis as { gc?: () => void }).gc;

let written = 0;
const event = Buffer.from(`id: 1\nevent: tool.progress\ndata: ${JSON.stringify({ text: "x".repeat(1_000) })}\n\n`);
const server = createServer((_request, response) => {
  response.writeHead(200, { "content-type": "text/event-stream" });
  const pump = () => {
    while (!response.destroyed) {
      written += event.length;
      if (!response.write(event)) return void response.once("drain", pump);
    }
  };
  pump();
});
async function main() {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));

  gc?.();
  const baseline = process.memoryUsage().heapUsed;
  const loop = new ToolClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api` }).events("r");
  await loop.next();
  let peak = baseline;
  for (let waited = 0; waited < PAUSE_MS; waited += SAMPLE_MS) {
    await sleep(SAMPLE_MS);
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }
  const writtenWhilePaused = written;
  await loop.return!();
  server.closeAllConnections();
  server.close();

  console.log(`events() with a loop paused ${PAUSE_MS / 1000} s, a loopback server writing ${event.length}-byte events as fast as it can (EVENTS_QUEUE_LIMIT = ${EVENTS_QUEUE_LIMIT}):`);
  console.log(`  server wrote ${(writtenWhilePaused / MiB).toFixed(1)} MiB in all (then TCP held it back)`);
  console.log(`  peak heap ${(peak / MiB).toFixed(1)} MiB, ${((peak - baseline) / MiB).toFixed(1)} MiB over the ${(baseline / MiB).toFixed(1)} MiB before connecting${gc ? "" : " (run with --expose-gc for a steadier baseline)"}`);
}

void main();
