/**
 * A supervisor that hands a question to two subagents (examples/supervisor.ts),
 * served over SSE with `@ag-ui/encoder` and read by `@ag-ui/client`'s
 * HttpAgent: what the person sees (the answer is the supervisor's words; each
 * invocation is a step of its own; a failing one fails its step, not the
 * turn), the history the next run is sent (as `@ag-ui/client` itself keeps
 * it, attribution included), and the tokens reported.
 */
import { HttpAgent } from "@ag-ui/client";
import type { Message, TokenUsage } from "@ag-ui/core";
import { CarbonRecorder, type AgentServer } from "carbon-agui-rx/testing";
import { SUPERVISOR, supervisorRun } from "../../examples/supervisor";
import { CarbonAgUiAdapter } from "../../src/adapter";
import type { CarbonStreamChunk } from "../../src/carbon";
import type { CarbonAgUiError } from "../../src/errors";
import { fromAgent } from "../../src/runners/fromAgent";
import { startEncodedAgentServer } from "../support/agentServer";
import { ev } from "../support/builders";

const finals = (carbon: CarbonRecorder) => carbon.chunks.flatMap((chunk: CarbonStreamChunk) => ("final_response" in chunk ? [chunk.final_response] : []));

describe("a supervisor and its subagents, over SSE through HttpAgent", () => {
  let server: AgentServer | undefined;
  afterEach(() => server?.close());

  /** The supervisor answers the first question (its run id fixed, so two clients see the same ids); a plain answer follows. */
  const serve = () =>
    startEncodedAgentServer((input, sse) => {
      const events = server!.inputs.length === 1 || input.runId === "reference" ? supervisorRun({ threadId: input.threadId, runId: "run-1" }) : [ev.runStarted(input.runId, input.threadId), ev.runFinished({ threadId: input.threadId, runId: input.runId })];
      for (const event of events) sse.send(event);
      sse.end();
    });

  it("shows the supervisor's words as the answer and each subagent as a step of its own; a failing one fails its step, and the turn goes on", async () => {
    server = await serve();
    const errors: CarbonAgUiError[] = [];
    const usage: [readonly TokenUsage[], { threadId: string; runId: string }][] = [];
    const adapter = new CarbonAgUiAdapter({ run: fromAgent(new HttpAgent({ url: server.url })), threadId: "t1", onError: (error) => errors.push(error), onUsage: (reported, run) => usage.push([reported, run]), showUsage: true });
    const carbon = new CarbonRecorder();
    carbon.userSays("Why are there tides?");
    await adapter.sendMessage({ id: "u1", input: { text: "Why are there tides?" } }, { signal: new AbortController().signal }, carbon);

    expect(carbon.transcript()).toBe(
      [
        "You: Why are there tides?",
        `Assistant: ${SUPERVISOR.opening}`,
        SUPERVISOR.answer,
        "(250 tokens (200 in, 50 out))",
        "  How did I get this answer? Handing off to researcher (success), researcher (success), researcher: search (success), fact_checker (failure)",
      ].join("\n"),
    );
    const [final] = finals(carbon);
    const steps = final!.message_options!.chain_of_thought!;
    expect(steps[1]).toMatchObject({ title: "researcher", description: "Looks things up", response: { content: `> Search for tidal forces.\n\n${SUPERVISOR.notes}` } });
    expect(steps[3]).toMatchObject({ title: "fact_checker", status: "failure", response: { content: `${SUPERVISOR.checkerFailure} (BUDGET_EXCEEDED)` } });
    expect(final!.history?.error_state).toBeUndefined();
    expect(errors).toEqual([]);
    expect(carbon.waitingForFinal).toEqual([]);

    expect(usage).toEqual([[supervisorRun({ threadId: "t1", runId: "run-1" }).at(-1)!.usage, { threadId: "t1", runId: "run-1" }]]);
    expect(adapter.usage).toEqual([
      { provider: "scripted", model: "supervisor", inputTokens: 120, outputTokens: 30, totalTokens: 150 },
      { provider: "scripted", model: "researcher", inputTokens: 80, outputTokens: 20, totalTokens: 100 },
    ]);
  });

  it("keeps the history as @ag-ui/client keeps it, each subagent's message with its subagentRunId, and sends it so to the next run", async () => {
    server = await serve();
    const adapter = new CarbonAgUiAdapter({ run: fromAgent(new HttpAgent({ url: server.url })), threadId: "t1" });
    const carbon = new CarbonRecorder();
    await adapter.sendMessage({ id: "u1", input: { text: "Why are there tides?" } }, { signal: new AbortController().signal }, carbon);

    const reference = new HttpAgent({ url: server.url, threadId: "t1", initialMessages: [{ id: "u1", role: "user", content: "Why are there tides?" }] });
    await reference.runAgent({ runId: "reference" });
    expect(adapter.messages).toEqual(reference.messages);

    const byWhom = (messages: readonly Message[]) => messages.map((message) => `${message.id}${message.subagentRunId === undefined ? "" : ` (${message.subagentRunId})`}`);
    expect(byWhom(adapter.messages)).toEqual(["u1", "open-run-1", "delegated-run-1", "think-run-1 (researcher-run-1)", "notes-run-1 (researcher-run-1)", "found-run-1 (researcher-run-1)", "answer-run-1"]);

    await adapter.sendMessage({ id: "u2", input: { text: "Thanks" } }, { signal: new AbortController().signal }, carbon);
    expect(server.inputs.at(-1)!.messages.slice(0, -1)).toEqual(reference.messages);
  });
});
