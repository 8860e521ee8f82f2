import { EventType } from "@ag-ui/core";
import type { CarbonChainOfThoughtStep, CarbonStreamChunk } from "../src/carbon";
import { NO_TOOL_RESULT } from "../src/operators/map/toolCallSteps";
import { OPTIONS_CARRIER_ID } from "../src/operators/render/toStreamChunks";
import { carbon, ev } from "carbon-agui-rx/testing";
import type { MarbleScenario } from "./scenario";

const steps = (step: CarbonChainOfThoughtStep): CarbonStreamChunk => carbon.options("r1", { chain_of_thought: [step] });
const processing: CarbonChainOfThoughtStep = { tool_name: "lookup", status: "processing" };
// The run finishes without the call's result, and lookup is no client tool: the step fails (see toolCallSteps).
const unanswered: CarbonChainOfThoughtStep = { tool_name: "lookup", status: "failure", request: { args: { id: 7 } }, response: { content: NO_TOOL_RESULT } };

export default {
  name: "TOOL_CALL_CHUNK events build the same chain-of-thought step as explicit tool-call events",
  covers: {
    [EventType.TOOL_CALL_CHUNK]: "expanded to TOOL_CALL_START/ARGS/END: chain_of_thought step",
  },
  events: {
    marble: "R-a-b-F|",
    values: {
      R: ev.runStarted(),
      a: ev.toolChunk({ toolCallId: "t1", toolCallName: "lookup", delta: '{"id":' }),
      b: ev.toolChunk({ delta: "7}" }),
      F: ev.runFinished(),
    },
  },
  chunks: {
    marble: "--P---(AUf|)",
    values: {
      P: steps(processing),
      A: steps({ ...processing, request: { args: { id: 7 } } }),
      U: steps(unanswered),
      f: {
        final_response: {
          id: "r1",
          output: { generic: [carbon.textItem(OPTIONS_CARRIER_ID, "")] },
          message_options: { chain_of_thought: [unanswered] },
        },
      },
    },
  },
} satisfies MarbleScenario;
