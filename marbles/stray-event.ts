import { EventType } from "@ag-ui/core";
import { carbon, ev } from "carbon-agui-rx/testing";
import type { MarbleScenario } from "./scenario";

export default {
  name: "content for a message that is not open (a late event of another run) is skipped, and the answer goes on",
  covers: {
    [EventType.TEXT_MESSAGE_CONTENT]: "for a message that is not open: onInvalidEvent, skipped",
  },
  events: {
    marble: "R-S-g-a-E-F|",
    values: { R: ev.runStarted(), S: ev.textStart("m1"), g: ev.text("ghost", "boo"), a: ev.text("m1", "Hello"), E: ev.textEnd("m1"), F: ev.runFinished() },
  },
  chunks: {
    marble: "------p-C-(f|)",
    values: {
      p: carbon.partialText("r1", "m1", "Hello"),
      C: carbon.completeText("r1", "m1", "Hello"),
      f: carbon.final("r1", [carbon.textItem("m1", "Hello")]),
    },
  },
  reports: ["onInvalidEvent: Invalid TEXT_MESSAGE_CONTENT event: no open text message 'ghost': skipped"],
} satisfies MarbleScenario;
