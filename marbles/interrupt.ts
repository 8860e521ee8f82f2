import { EventType } from "@ag-ui/core";
import type { CarbonItem } from "../src/carbon";
import { carbon, ev } from "carbon-agui-rx/testing";
import type { MarbleScenario } from "./scenario";

const card = (user_defined: object): CarbonItem => ({
  response_type: "user_defined",
  user_defined,
  streaming_metadata: { id: `interrupt-${(user_defined as { interruptId: string }).interruptId}` },
});
const approve = card({ kind: "interrupt", interruptId: "i1", reason: "tool_approval", message: "Delete 3 files?", toolCallId: "t1", action: "delete_files", args: { paths: ["a", "b", "c"] } });

export default {
  name: "an interrupt outcome shows a decision card with the tool call it concerns, then ends the turn",
  covers: {
    [EventType.RUN_FINISHED]: "outcome interrupt: a user_defined decision card per interrupt (kept pending for respondToInterrupt), then final_response",
  },
  events: {
    marble: "R-T-a-E-F|",
    values: {
      R: ev.runStarted(),
      T: ev.toolStart("t1", "delete_files"),
      a: ev.toolArgs("t1", '{"paths":["a","b","c"]}'),
      E: ev.toolEnd("t1"),
      F: ev.runFinished({ outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "tool_approval", message: "Delete 3 files?", toolCallId: "t1" }] } }),
    },
  },
  chunks: {
    marble: "--P---Q-(Scf|)",
    values: {
      P: carbon.options("r1", { chain_of_thought: [{ tool_name: "delete_files", status: "processing" }] }),
      Q: carbon.options("r1", { chain_of_thought: [{ tool_name: "delete_files", status: "processing", request: { args: { paths: ["a", "b", "c"] } } }] }),
      // The call waits for the person's decision: its step says so, not spinning (its message cannot change later; see toolCallSteps).
      S: carbon.options("r1", { chain_of_thought: [{ tool_name: "delete_files", status: "success", request: { args: { paths: ["a", "b", "c"] } }, description: "Waiting for a decision" }] }),
      c: { complete_item: approve, streaming_metadata: { response_id: "r1" } },
      f: {
        final_response: {
          id: "r1",
          output: { generic: [approve] },
          message_options: { chain_of_thought: [{ tool_name: "delete_files", status: "success", request: { args: { paths: ["a", "b", "c"] } }, description: "Waiting for a decision" }] },
        },
      },
    },
  },
} satisfies MarbleScenario;
