import { EventType } from "@ag-ui/core";
import { carbon, ev } from "carbon-agui-rx/testing";
import type { MarbleScenario } from "./scenario";

export default {
  name: "a stream that ends cleanly without RUN_FINISHED still ends the turn with its final response",
  covers: {
    [EventType.TEXT_MESSAGE_END]: "complete_item; the stream end sends the final_response",
  },
  events: {
    marble: "R-S-a-E-|",
    values: { R: ev.runStarted(), S: ev.textStart("m1"), a: ev.text("m1", "Done."), E: ev.textEnd("m1") },
  },
  chunks: {
    marble: "----p-C-(f|)",
    values: {
      p: carbon.partialText("r1", "m1", "Done."),
      C: carbon.completeText("r1", "m1", "Done."),
      f: carbon.final("r1", [carbon.textItem("m1", "Done.")]),
    },
  },
} satisfies MarbleScenario;
