import type { Message } from "@ag-ui/core";
import { Subject } from "rxjs";
import type { CarbonChainOfThoughtStep } from "../../src/carbon";
import type { PipelineElement } from "../../src/instructions";
import { ChainSteps } from "../../src/internal/chainSteps";
import { chainOfThought } from "../../src/operators/map/chainOfThought";
import { sameArguments, takeFromSnapshot } from "../../src/internal/takeFromSnapshot";
import { ToolCallsInProgress } from "../../src/internal/toolCallsInProgress";

const call = (id: string, name: string, args: string) => ({ id, type: "function" as const, function: { name, arguments: args } });

/** A run that streamed `search` (t1) with `{"q":"a"}`, ended, and `fetch` (t2), still open. */
function streamed() {
  const sent: PipelineElement[] = [];
  // The steps' changes put in one chain, as the pipeline's chainOfThought() does.
  const steps = new Subject<PipelineElement>();
  steps.pipe(chainOfThought()).subscribe((element) => sent.push(element));
  const send = (element: PipelineElement) => steps.next(element);
  const chain = new ChainSteps(send);
  const calls = new ToolCallsInProgress(send);
  chain.add("tool:t1", { tool_name: "search", status: "processing" });
  calls.start("t1", "search", "a1", "tool:t1");
  calls.appendArguments("t1", '{"q":"a"}');
  chain.set("tool:t1", { tool_name: "search", status: "processing", request: { args: { q: "a" } } });
  calls.end("t1", calls.get("t1")!);
  chain.add("tool:t2", { tool_name: "fetch", status: "processing" });
  calls.start("t2", "fetch", "a1", "tool:t2");
  sent.length = 0;
  const chains = () => sent.flatMap((element) => ("kind" in element && element.kind === "options" ? [element.options.chain_of_thought!] : []));
  /** As toolCallSteps answers a call: its step shows the result. */
  const answer = (toolCallId: string, content: string, error: string | undefined) => {
    const found = calls.answer(toolCallId);
    if (found) chain.set(found.step, { ...chain.at(found.step)!, response: { content }, status: error ? "failure" : "success" });
  };
  return { sent, chain, calls, chains, answer };
}

describe("takeFromSnapshot", () => {
  it("takes the arguments and the calls the events got wrong, sending the chain once, and gives the new calls", () => {
    const { sent, chain, calls, chains, answer } = streamed();
    const messages = [
      { id: "u1", role: "user", content: "hi" },
      { id: "a1", role: "assistant", toolCalls: [call("t1", "search", '{"q":"b"}'), call("t2", "fetch", '{"url":"x"}'), call("t3", "read", '{"path":"p"}'), call("t4", "list", "{}")] },
      { id: "a9", role: "assistant", toolCalls: [call("t9", "unrelated", "{}")] },
      { id: "r3", role: "tool", toolCallId: "t3", content: "text" },
      { id: "r3b", role: "tool", toolCallId: "t3", content: "later" },
    ] as Message[];
    const found = takeFromSnapshot(messages, calls, chain, answer);
    expect(found).toEqual([
      { toolCallId: "t3", name: "read", args: { path: "p" }, parentMessageId: "a1" },
      { toolCallId: "t4", name: "list", args: {}, parentMessageId: "a1" },
    ]);
    expect(chains()).toEqual<CarbonChainOfThoughtStep[][]>([
      [
        { tool_name: "search", status: "processing", request: { args: { q: "b" } } },
        { tool_name: "fetch", status: "processing" },
        { tool_name: "read", request: { args: { path: "p" } }, response: { content: "text" }, status: "success" },
        { tool_name: "list", request: { args: {} }, status: "processing" },
      ],
    ]);
    expect(sent).toHaveLength(1);
    expect(calls.get("t1")!.arguments.toString()).toBe('{"q":"b"}');
    expect(calls.get("t2")!.arguments.toString()).toBe("");
    expect([calls.get("t3")!.status, calls.get("t4")!.status, calls.has("t9")]).toEqual(["answered", "open", false]);
    expect(calls.isOpen("t4")).toBe(false);
  });

  it("marks a call whose result in the snapshot carries an error as a failure", () => {
    const { chain, calls, chains, answer } = streamed();
    takeFromSnapshot([{ id: "a1", role: "assistant", toolCalls: [call("t1", "search", '{"q":"a"}'), call("t3", "read", "{}")] }, { id: "r3", role: "tool", toolCallId: "t3", content: "", error: "denied" }] as Message[], calls, chain, answer);
    expect(chains().at(-1)?.[2]?.status).toBe("failure");
  });

  it("changes and sends nothing when the snapshot has the calls as they were streamed", () => {
    const { sent, chain, calls, answer } = streamed();
    expect(takeFromSnapshot([{ id: "a1", role: "assistant", toolCalls: [call("t1", "search", '{ "q": "a" }')] }] as Message[], calls, chain, answer)).toEqual([]);
    expect(sent).toEqual([]);
  });

  it("answers a call the run streamed with the result the snapshot holds for it (a supervisor's handoff, whose result LangGraph does not stream), but not one still streaming its arguments", () => {
    const { chain, calls, chains, answer } = streamed();
    const messages = [
      { id: "a1", role: "assistant", toolCalls: [call("t1", "search", '{"q":"a"}'), call("t2", "fetch", "")] },
      { id: "r1", role: "tool", toolCallId: "t1", content: "Successfully transferred to writer" },
      { id: "r2", role: "tool", toolCallId: "t2", content: "too early" },
    ] as Message[];
    expect(takeFromSnapshot(messages, calls, chain, answer)).toEqual([]);
    expect(chains()).toEqual<CarbonChainOfThoughtStep[][]>([
      [
        { tool_name: "search", status: "success", request: { args: { q: "a" } }, response: { content: "Successfully transferred to writer" } },
        { tool_name: "fetch", status: "processing" },
      ],
    ]);
    expect([calls.get("t1")!.status, calls.get("t2")!.status]).toEqual(["answered", "open"]);
  });
});

describe("sameArguments", () => {
  it("compares the JSON, however it is spaced, and other text as it is", () => {
    expect(sameArguments('{"q":"a"}', '{ "q": "a" }')).toBe(true);
    expect(sameArguments('{"q":"a"}', '{"q":"b"}')).toBe(false);
    expect(sameArguments("ls -la", "ls -la")).toBe(true);
    expect(sameArguments("", "{}")).toBe(true);
  });
});
