import type { BaseEvent, RunAgentInput } from "@ag-ui/core";
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { firstValueFrom, from, lastValueFrom, take, toArray, type ObservableInput } from "rxjs";

/** A minimal valid run input. */
export function runInput(overrides: Partial<RunAgentInput> = {}): RunAgentInput {
  return { threadId: "thread-1", runId: "run-1", messages: [], tools: [], context: [], state: {}, ...overrides };
}

/** Collects every value, resolving at completion. */
export function collect<T>(source: ObservableInput<T>): Promise<T[]> {
  return lastValueFrom(from(source).pipe(toArray()));
}

/** Collects the first `count` values, then unsubscribes. */
export function collectFirst<T>(source: ObservableInput<T>, count: number): Promise<T[]> {
  return firstValueFrom(from(source).pipe(take(count), toArray()));
}

/** An HTTP server on loopback with a hand-written handler, for what an AG-UI server would not send. */
export async function startHttpServer(handler: RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The `type` of each event, for compact assertions. */
export const types = (events: BaseEvent[]) => events.map((event) => event.type);

/** Polls `condition` every `everyMs` (default 5 ms; it may ask a server); rejects after `timeoutMs` so a test can never spin forever. */
export async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs = 2_000, everyMs = 5): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`waitUntil: condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
