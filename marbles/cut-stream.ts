import { EventType } from "@ag-ui/core";
import { AgUiProtocolError } from "../src/errors";
import { carbon, ev } from "carbon-agui-rx/testing";
import type { MarbleScenario } from "./scenario";

export default {
  name: "a stream that ends mid-message is a cut answer: text kept, an inline error says it broke off, protocol error",
  covers: {
    [EventType.TEXT_MESSAGE_CONTENT]: "cut mid-message: final_response with an inline error, AgUiProtocolError",
  },
  events: {
    marble: "R-S-a-|",
    values: { R: ev.runStarted(), S: ev.textStart("m1"), a: ev.text("m1", "Half an ans") },
  },
  chunks: {
    marble: "----p-(f#)",
    values: {
      p: carbon.partialText("r1", "m1", "Half an ans"),
      f: carbon.final("r1", [carbon.textItem("m1", "Half an ans"), carbon.inlineError("This answer is incomplete. The agent's answer broke off before it was complete.")]),
    },
    error: new AgUiProtocolError("The stream ended while text message 'm1' was still open"),
  },
} satisfies MarbleScenario;
