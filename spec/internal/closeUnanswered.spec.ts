import type { RunFinishedOutcome } from "@ag-ui/core";
import { Subject } from "rxjs";
import type { CarbonChainOfThoughtStep } from "../../src/carbon";
import type { PipelineElement } from "../../src/instructions";
import { ChainSteps } from "../../src/internal/chainSteps";
import { chainOfThought } from "../../src/operators/map/chainOfThought";
import {
  AWAITING_ANSWER,
  AWAITING_DECISION,
  closedStep,
  closeUnanswered,
  failsWithoutResult,
  fatesAtFinish,
  NO_CLIENT_TOOL,
  NO_TOOL_RESULT,
  type Fate,
} from "../../src/internal/closeUnanswered";
import { ToolCallsInProgress } from "../../src/internal/toolCallsInProgress";

const pending = (...pendingToolCallIds: string[]) => ({ type: "success", pendingToolCallIds }) as RunFinishedOutcome;
const interrupt = (toolCallId: string) => ({ type: "interrupt", interrupts: [{ id: "i1", reason: "tool_approval", toolCallId }] }) as unknown as RunFinishedOutcome;
const noneAsked = new Set<string>();

describe("fatesAtFinish", () => {
  it("hands over the calls the outcome names when no client tools are given, and leaves the others the agent's; with no list, the chat answers every call left without a result", () => {
    const fateOf = fatesAtFinish(pending("t1"), { clientTools: undefined, asked: noneAsked });
    expect([fateOf("t1", "paint"), fateOf("t2", "paint")]).toEqual<Fate[]>([{ status: "handedOver", byPerson: false }, { status: "failed", why: NO_TOOL_RESULT }]);
    expect(fatesAtFinish(undefined, { clientTools: undefined, asked: noneAsked })("t1", "paint")).toEqual({ status: "failed", why: NO_TOOL_RESULT, chatAnswers: true });
  });

  it("with no list in the outcome, hands over the calls of the client tools given, to the person for an asked tool, and answers the others as the chat (it has no tool for them)", () => {
    const fateOf = fatesAtFinish(pending(), { clientTools: ["paint", "pick_color"], asked: new Set(["pick_color"]) });
    expect([fateOf("t1", "paint"), fateOf("t2", "pick_color"), fateOf("t4", "search")]).toEqual<Fate[]>([
      { status: "handedOver", byPerson: false },
      { status: "handedOver", byPerson: true },
      { status: "failed", why: NO_TOOL_RESULT, chatAnswers: true },
    ]);
  });

  it("takes the outcome's list as the calls that are the chat's: one it names for a tool the client lacks fails with the chat's answer, a client tool's call it does not name is the agent's", () => {
    const fateOf = fatesAtFinish(pending("t1", "t3"), { clientTools: ["paint", "pick_color"], asked: new Set(["pick_color"]) });
    expect([fateOf("t1", "paint"), fateOf("t2", "pick_color"), fateOf("t3", "launch"), fateOf("t4", "search")]).toEqual<Fate[]>([
      { status: "handedOver", byPerson: false },
      { status: "failed", why: NO_TOOL_RESULT },
      { status: "failed", why: NO_CLIENT_TOOL, chatAnswers: true },
      { status: "failed", why: NO_TOOL_RESULT },
    ]);
  });

  it("holds a call an interrupt names, even of a client tool", () => {
    const fateOf = fatesAtFinish(interrupt("t1"), { clientTools: ["paint"], asked: new Set(["paint"]) });
    expect([fateOf("t1", "paint"), fateOf("t2", "delete_files")]).toEqual<Fate[]>([{ status: "held" }, { status: "failed", why: NO_TOOL_RESULT }]);
  });

  it("fails every call of a run that broke off", () => {
    expect(failsWithoutResult("t1", "paint")).toEqual({ status: "failed", why: NO_TOOL_RESULT });
  });
});

describe("closedStep", () => {
  const step: CarbonChainOfThoughtStep = { tool_name: "paint", status: "processing", request: { args: {} } };
  it("shows each fate", () => {
    expect(closedStep(step, { status: "held" })).toEqual({ ...step, status: "success", description: AWAITING_DECISION });
    expect(closedStep(step, { status: "handedOver", byPerson: true })).toEqual({ ...step, status: "success", description: AWAITING_ANSWER });
    expect(closedStep(step, { status: "handedOver", byPerson: false })).toEqual({ ...step, status: "success" });
    expect(closedStep(step, { status: "failed", why: NO_CLIENT_TOOL })).toEqual({ ...step, status: "failure", response: { content: NO_CLIENT_TOOL } });
  });
});

describe("closeUnanswered", () => {
  function run() {
    const sent: PipelineElement[] = [];
    // The steps' changes put in one chain, as the pipeline's chainOfThought() does.
    const steps = new Subject<PipelineElement>();
    steps.pipe(chainOfThought()).subscribe((element) => sent.push(element));
    const send = (element: PipelineElement) => steps.next(element);
    const chain = new ChainSteps(send);
    const calls = new ToolCallsInProgress(send);
    for (const [toolCallId, name] of [["t1", "paint"], ["t2", "search"], ["t3", "fetch"]] as const) {
      chain.add(`tool:${toolCallId}`, { tool_name: name, status: "processing" });
      calls.start(toolCallId, name, "a1", `tool:${toolCallId}`);
    }
    calls.answer("t3");
    sent.length = 0;
    return { sent, chain, calls, send };
  }

  it("closes the unanswered calls as their fates say, the chain sent once, and writes no result for a call the agent left without one", () => {
    const { sent, chain, calls, send } = run();
    closeUnanswered(calls, chain, fatesAtFinish(pending("t1"), { clientTools: undefined, asked: noneAsked }), send);
    expect(sent).toEqual([
      { kind: "options", options: { chain_of_thought: [{ tool_name: "paint", status: "success" }, { tool_name: "search", status: "failure", response: { content: NO_TOOL_RESULT } }, { tool_name: "fetch", status: "processing" }] } },
    ]);
    expect(calls.ofRun().map((call) => [call.toolCallId, call.status])).toEqual([["t1", "handedOver"], ["t2", "failed"], ["t3", "answered"]]);
  });

  it("writes the chat's own result for a call handed to it that it has no tool for, after the chain", () => {
    const { sent, chain, calls, send } = run();
    closeUnanswered(calls, chain, fatesAtFinish(pending("t2"), { clientTools: ["paint"], asked: noneAsked }), send);
    expect(sent.slice(1)).toEqual([{ kind: "history.message", message: { id: "t2-no-result", role: "tool", toolCallId: "t2", content: NO_CLIENT_TOOL, error: NO_CLIENT_TOOL } }]);
  });

  it("sends nothing once every call is closed", () => {
    const { sent, chain, calls, send } = run();
    closeUnanswered(calls, chain, failsWithoutResult, send);
    sent.length = 0;
    closeUnanswered(calls, chain, failsWithoutResult, send);
    expect(sent).toEqual([]);
  });
});
