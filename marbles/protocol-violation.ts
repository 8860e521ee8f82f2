import { EventType } from "@ag-ui/core";
import { AgUiProtocolError } from "../src/errors";
import { carbon, ev } from "carbon-agui-rx/testing";
import type { MarbleScenario } from "./scenario";

export default {
  name: "a message started again while it is open ends the turn with a protocol error",
  covers: {
    [EventType.TEXT_MESSAGE_START]: "for a message already open: final_response with an inline error, AgUiProtocolError",
  },
  events: {
    marble: "R-S-T-F|",
    values: { R: ev.runStarted(), S: ev.textStart("m1"), T: ev.textStart("m1"), F: ev.runFinished() },
  },
  chunks: {
    marble: "----(f#)",
    values: { f: carbon.final("r1", [carbon.inlineError("The agent sent an answer this chat could not follow.")]) },
    error: new AgUiProtocolError("TEXT_MESSAGE_START: text message 'm1' is already open", "TEXT_MESSAGE_START"),
  },
} satisfies MarbleScenario;
