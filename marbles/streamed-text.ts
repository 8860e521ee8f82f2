import { EventType } from "@ag-ui/core";
import { carbon, ev } from "carbon-agui-rx/testing";
import type { MarbleScenario } from "./scenario";

export default {
  name: "an assistant message streams as text deltas and ends in one final response",
  covers: {
    [EventType.RUN_STARTED]: "onEvent only",
    [EventType.TEXT_MESSAGE_START]: "opens the message (nothing shown yet)",
    [EventType.TEXT_MESSAGE_CONTENT]: "partial_item text delta",
    [EventType.TEXT_MESSAGE_END]: "complete_item with the whole text; history",
    [EventType.RUN_FINISHED]: "final_response with every item",
  },
  events: {
    marble: "R-S-a-b-E---F|",
    values: { R: ev.runStarted(), S: ev.textStart("m1"), a: ev.text("m1", "Hello, "), b: ev.text("m1", "world"), E: ev.textEnd("m1"), F: ev.runFinished() },
  },
  chunks: {
    marble: "----p-q-C---(f|)",
    values: {
      p: carbon.partialText("r1", "m1", "Hello, "),
      q: carbon.partialText("r1", "m1", "world"),
      C: carbon.completeText("r1", "m1", "Hello, world"),
      f: carbon.final("r1", [carbon.textItem("m1", "Hello, world")]),
    },
  },
} satisfies MarbleScenario;
