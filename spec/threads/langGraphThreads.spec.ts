import type { ServerThreadOfMessages } from "../../src/threads/agentThreads";
import { langGraphThreads } from "../../src/threads/langGraphThreads";

/**
 * `langGraphThreads(agent).load` reads a thread in two requests, its state and the run still going on it: a run that
 * ends between them must leave the thread with its answer, or a run to rejoin, never a question with neither (the
 * state read before the run's end, the runs after it).
 */
describe("langGraphThreads' load, as a run ends between its reads", () => {
  it("gives the last question its answer or its run: the runs read first, the state after", async () => {
    const question = { id: "u1", type: "human", content: "Tell me a story" };
    const answer = { id: "a1", type: "ai", content: "Once upon a time." };
    const run = { run_id: "r1", status: "running", kwargs: { resumable: true, input: { messages: [question] } } };
    // The run ends once the server has answered the load's first request, whichever it is.
    let ended = false;
    const end = <T>(value: T) => ((ended = true), value);
    const client = {
      threads: { getState: async () => end({ values: { messages: ended ? [question, answer] : [question] }, tasks: [], next: [] }) },
      runs: {
        list: async (_threadId: string, { status }: { status?: string } = {}) => (ended || status !== "running" ? [] : end([run])),
        joinStream: () => [][Symbol.iterator]() as never,
        cancel: async () => undefined,
        stream: () => undefined,
      },
    };
    const agent = { client, graphId: "assistant", clone: () => agent, run: () => ({ subscribe: () => ({ unsubscribe: () => undefined }) }) };
    const thread = (await langGraphThreads(agent as never).load("t1")) as ServerThreadOfMessages;
    const answered = thread.messages.some((message) => message.id === "a1");
    expect([answered, thread.running !== undefined]).not.toEqual([false, false]);
  });
});
