import { EventType } from "@ag-ui/core";
import { AgUiProtocolError } from "../src/errors";
import { carbon, ev } from "carbon-agui-rx/testing";
import type { MarbleScenario } from "./scenario";

export default {
  name: "a run whose stream ends without RUN_FINISHED keeps its closed message, but is not a success (a truncated run has no outcome)",
  covers: {
    [EventType.TEXT_MESSAGE_END]: "complete_item; the stream end without a terminal event: final_response with an inline error, AgUiProtocolError",
  },
  events: {
    marble: "R-S-a-E-|",
    values: { R: ev.runStarted(), S: ev.textStart("m1"), a: ev.text("m1", "Done."), E: ev.textEnd("m1") },
  },
  chunks: {
    marble: "----p-C-(f#)",
    values: {
      p: carbon.partialText("r1", "m1", "Done."),
      C: carbon.completeText("r1", "m1", "Done."),
      f: carbon.final("r1", [carbon.textItem("m1", "Done."), carbon.inlineError("This answer is incomplete. The agent's answer broke off before it was complete.")]),
    },
    error: new AgUiProtocolError("The stream ended before the run's RUN_FINISHED or RUN_ERROR: a truncated run has no outcome"),
  },
} satisfies MarbleScenario;
