import { EventType } from "@ag-ui/core";
import { AgUiProtocolError } from "../src/errors";
import { carbon, ev } from "carbon-agui-rx/testing";
import type { MarbleScenario } from "./scenario";

export default {
  name: "content for a message that never started ends the turn with a protocol error",
  covers: {
    [EventType.TEXT_MESSAGE_CONTENT]: "without a START: final_response with an inline error, AgUiProtocolError",
  },
  events: {
    marble: "R-a-F|",
    values: { R: ev.runStarted(), a: ev.text("ghost", "boo"), F: ev.runFinished() },
  },
  chunks: {
    marble: "--(f#)",
    values: { f: carbon.final("r1", [carbon.inlineError("The agent sent an answer this chat could not follow.")]) },
    error: new AgUiProtocolError("TEXT_MESSAGE_CONTENT: no open text message 'ghost'", "TEXT_MESSAGE_CONTENT"),
  },
} satisfies MarbleScenario;
