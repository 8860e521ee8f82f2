import type { RunAgentInput } from "@ag-ui/core";
import { serverRunStop } from "../../src/runners/serverRunStop";

const input: RunAgentInput = { threadId: "t1", runId: "client-run", messages: [], tools: [], context: [], state: {}, forwardedProps: { tenant: "x" } };

/** An agent holding a LangGraph SDK client, as LangGraphAgent does: the runs it cancels are recorded. */
function langGraphLike() {
  const cancelled: [string, string][] = [];
  const runs = {
    stream: () => undefined,
    cancel(threadId: string, runId: string) {
      cancelled.push([threadId, runId]);
      return Promise.resolve();
    },
  };
  return { agent: { client: { runs } }, cancelled };
}

type Created = (run: { run_id: string; thread_id?: string }) => void;
const onRunCreatedOf = (given: RunAgentInput) => (given.forwardedProps as { onRunCreated: Created }).onRunCreated;

describe("serverRunStop", () => {
  it("is nothing for an agent without a LangGraph SDK client", () => {
    expect(serverRunStop({ run: () => undefined }, input)).toBeUndefined();
    expect(serverRunStop({ client: { runs: { cancel: () => Promise.resolve() } } }, input)).toBeUndefined();
    expect(serverRunStop(undefined, input)).toBeUndefined();
  });

  it("cancels the server's run under the id the server gave it, stopped before or after the server named it", () => {
    const before = langGraphLike();
    const stoppedEarly = serverRunStop(before.agent, input)!;
    expect(stoppedEarly.input.forwardedProps).toMatchObject({ tenant: "x" });
    stoppedEarly.stop();
    expect(before.cancelled).toEqual([]);
    onRunCreatedOf(stoppedEarly.input)({ run_id: "server-run", thread_id: "t1" });
    expect(before.cancelled).toEqual([["t1", "server-run"]]);

    const after = langGraphLike();
    const stoppedLate = serverRunStop(after.agent, input)!;
    onRunCreatedOf(stoppedLate.input)({ run_id: "server-run-2" });
    expect(after.cancelled).toEqual([]);
    stoppedLate.stop();
    expect(after.cancelled).toEqual([["t1", "server-run-2"]]);
  });

  it("leaves a run that was not stopped alone, and a failing cancel unreported (the run may have ended)", async () => {
    const { agent, cancelled } = langGraphLike();
    const running = serverRunStop(agent, input)!;
    onRunCreatedOf(running.input)({ run_id: "server-run" });
    expect(cancelled).toEqual([]);
    agent.client.runs.cancel = () => Promise.reject(new Error("404 run not found"));
    running.stop();
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
});
