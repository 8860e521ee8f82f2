import { EventType } from "@ag-ui/core";
import type { CarbonChainOfThoughtStep, CarbonStreamChunk } from "../src/carbon";
import { OPTIONS_CARRIER_ID } from "../src/operators/render/toStreamChunks";
import { carbon, ev } from "carbon-agui-rx/testing";
import type { MarbleScenario } from "./scenario";

const searching: CarbonChainOfThoughtStep = { tool_name: "search", status: "processing" };
const withArgs: CarbonChainOfThoughtStep = { ...searching, request: { args: { q: "rxjs" } } };
const done: CarbonChainOfThoughtStep = { ...withArgs, response: { content: "3 hits" }, status: "success" };
const steps = (step: CarbonChainOfThoughtStep): CarbonStreamChunk => carbon.options("r1", { chain_of_thought: [step] });

export default {
  name: "a tool call shows as a live chain-of-thought step, and the answer streams into the item that carried it",
  covers: {
    [EventType.TOOL_CALL_START]: "chain_of_thought step, processing (live message_options)",
    [EventType.TOOL_CALL_ARGS]: "collected for the step",
    [EventType.TOOL_CALL_END]: "step request.args; history toolCalls",
    [EventType.TOOL_CALL_RESULT]: "step response, success/failure; history tool message",
  },
  events: {
    marble: "R-T-a-E-X-S-b-e-F|",
    values: {
      R: ev.runStarted(),
      T: { type: EventType.TOOL_CALL_START, toolCallId: "t1", toolCallName: "search", parentMessageId: "a1" },
      a: ev.toolArgs("t1", '{"q":"rxjs"}'),
      E: ev.toolEnd("t1"),
      X: { type: EventType.TOOL_CALL_RESULT, messageId: "r-t1", toolCallId: "t1", content: "3 hits" },
      S: ev.textStart("a1"),
      b: ev.text("a1", "Found 3."),
      e: ev.textEnd("a1"),
      F: ev.runFinished(),
    },
  },
  chunks: {
    marble: "--O---P-Q---B-C-(f|)",
    values: {
      O: steps(searching),
      P: steps(withArgs),
      Q: steps(done),
      B: carbon.partialText("r1", OPTIONS_CARRIER_ID, "Found 3."),
      C: carbon.completeText("r1", OPTIONS_CARRIER_ID, "Found 3."),
      f: { final_response: { id: "r1", output: { generic: [carbon.textItem(OPTIONS_CARRIER_ID, "Found 3.")] }, message_options: { chain_of_thought: [done] } } },
    },
  },
} satisfies MarbleScenario;
