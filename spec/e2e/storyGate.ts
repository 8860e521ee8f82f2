import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Where the demos' story waits (`CARBON_AGUI_STORY_GATE`): the test answers each wait when it chooses. */
export interface StoryGate {
  readonly url: string;
  /** Lets the story's chunks up to `chunk` go (numbers: LangGraph's chunks; the CopilotKit story's hold is "hold"). */
  release(chunk: number | "hold"): void;
  /** Lets everything go, now and from now on. */
  releaseAll(): void;
  /** Holds again what comes next (a new story). */
  hold(): void;
  /** The waits the story has asked for so far, in order. */
  readonly asked: readonly string[];
  close(): Promise<void>;
}

/**
 * A gate on 127.0.0.1 for the demos' story: the story asks `GET /<chunk>`
 * (or `/hold`) before each chunk after the first, and this answers only
 * once the test releases it, so a reload lands where the test wants it
 * whatever the machine's speed. Closing answers every wait.
 */
export async function startStoryGate(): Promise<StoryGate> {
  const waiting: { key: string; response: ServerResponse }[] = [];
  const asked: string[] = [];
  let releasedUpTo = 0;
  let holdReleased = false;
  let all = false;
  const open = (key: string) => all || (key === "hold" ? holdReleased : Number(key) <= releasedUpTo);
  const answerOpen = () => {
    for (const entry of [...waiting]) {
      if (!open(entry.key)) continue;
      waiting.splice(waiting.indexOf(entry), 1);
      entry.response.end("go");
    }
  };
  const server = createServer((request, response) => {
    const key = (request.url ?? "/").slice(1);
    asked.push(key);
    waiting.push({ key, response });
    answerOpen();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    asked,
    release(chunk) {
      if (chunk === "hold") holdReleased = true;
      else releasedUpTo = Math.max(releasedUpTo, chunk);
      answerOpen();
    },
    releaseAll() {
      all = true;
      answerOpen();
    },
    hold() {
      all = false;
      holdReleased = false;
      releasedUpTo = 0;
      asked.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        all = true;
        answerOpen();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
