import { EventType } from "@ag-ui/core";
import type { CarbonChainOfThoughtStep, CarbonStreamChunk } from "../src/carbon";
import { OPTIONS_CARRIER_ID } from "../src/operators/render/toStreamChunks";
import { carbon, ev } from "carbon-agui-rx/testing";
import type { MarbleScenario } from "./scenario";

const delegating: CarbonChainOfThoughtStep = { tool_name: "delegate", status: "processing" };
const delegated: CarbonChainOfThoughtStep = { ...delegating, request: { args: {} } };
// The call that started the researcher reads as a handoff to it (the critic it started next leaves it so).
const handingOff: CarbonChainOfThoughtStep = { ...delegated, title: "Handing off to researcher" };
// A subagent its start does not describe is described as a worker (Carbon labels its tool_name "Tool").
const researching: CarbonChainOfThoughtStep = { title: "researcher", tool_name: "researcher", description: "Worker", status: "processing" };
const noted: CarbonChainOfThoughtStep = { ...researching, response: { content: "Tides follow the moon." } };
const researched: CarbonChainOfThoughtStep = { ...noted, status: "success" };
const checking: CarbonChainOfThoughtStep = { title: "critic", tool_name: "critic", description: "Worker", status: "processing" };
const failed: CarbonChainOfThoughtStep = { ...checking, status: "failure", response: { content: "timed out" } };
const answered: CarbonChainOfThoughtStep = { ...handingOff, response: { content: "notes" }, status: "success" };
const steps = (...chain: CarbonChainOfThoughtStep[]): CarbonStreamChunk => carbon.options("r1", { chain_of_thought: chain });

export default {
  name: "a subagent is a step of its own under the call that started it: its words its step's, its failure its step's; the answer is the agent's",
  covers: {
    [EventType.SUBAGENT_STARTED]: "chain_of_thought step under its parent call, processing",
    [EventType.SUBAGENT_FINISHED]: "its step's success, with what it said",
    [EventType.SUBAGENT_ERROR]: "its step's failure, with the error's message; the turn goes on",
  },
  events: {
    marble: "R-T-e-s-S-t-E-f-x-y-X-A-b-z-F|",
    values: {
      R: ev.runStarted(),
      T: { type: EventType.TOOL_CALL_START, toolCallId: "t1", toolCallName: "delegate", parentMessageId: "a1" },
      e: ev.toolEnd("t1"),
      s: { type: EventType.SUBAGENT_STARTED, subagentRunId: "sub-1", name: "researcher", parentToolCallId: "t1" },
      S: { ...ev.textStart("m1"), subagentRunId: "sub-1" },
      t: ev.text("m1", "Tides follow the moon."),
      E: ev.textEnd("m1"),
      f: { type: EventType.SUBAGENT_FINISHED, subagentRunId: "sub-1" },
      x: { type: EventType.SUBAGENT_STARTED, subagentRunId: "sub-2", name: "critic", parentToolCallId: "t1" },
      y: { type: EventType.SUBAGENT_ERROR, subagentRunId: "sub-2", message: "timed out" },
      X: { type: EventType.TOOL_CALL_RESULT, messageId: "r-t1", toolCallId: "t1", content: "notes" },
      A: ev.textStart("a1"),
      b: ev.text("a1", "The moon."),
      z: ev.textEnd("a1"),
      F: ev.runFinished(),
    },
  },
  chunks: {
    marble: "--O-P-(qQ)--N-D-K-L-M---B-C-(f|)",
    values: {
      O: steps(delegating),
      P: steps(delegated),
      q: steps(delegated, researching),
      Q: steps(handingOff, researching),
      N: steps(handingOff, noted),
      D: steps(handingOff, researched),
      K: steps(handingOff, researched, checking),
      L: steps(handingOff, researched, failed),
      M: steps(answered, researched, failed),
      B: carbon.partialText("r1", OPTIONS_CARRIER_ID, "The moon."),
      C: carbon.completeText("r1", OPTIONS_CARRIER_ID, "The moon."),
      f: { final_response: { id: "r1", output: { generic: [carbon.textItem(OPTIONS_CARRIER_ID, "The moon.")] }, message_options: { chain_of_thought: [answered, researched, failed] } } },
    },
  },
} satisfies MarbleScenario;
