import { EventType } from "@ag-ui/core";
import { MessageErrorState } from "../src/carbon";
import { AgUiProtocolError } from "../src/errors";
import { carbon, ev } from "carbon-agui-rx/testing";
import type { MarbleScenario } from "./scenario";

export default {
  name: "a stream that ends mid-message is a cut answer: text kept, marked failed, protocol error",
  covers: {
    [EventType.TEXT_MESSAGE_CONTENT]: "cut mid-message: final_response with error_state 3, AgUiProtocolError",
  },
  events: {
    marble: "R-S-a-|",
    values: { R: ev.runStarted(), S: ev.textStart("m1"), a: ev.text("m1", "Half an ans") },
  },
  chunks: {
    marble: "----p-(f#)",
    values: {
      p: carbon.partialText("r1", "m1", "Half an ans"),
      f: carbon.final("r1", [carbon.textItem("m1", "Half an ans")], { errorState: MessageErrorState.FAILED_WHILE_STREAMING }),
    },
    error: new AgUiProtocolError("The stream ended while text message 'm1' was still open"),
  },
} satisfies MarbleScenario;
