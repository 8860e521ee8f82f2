import { EventType } from "@ag-ui/core";
import { carbon, ev } from "carbon-agui-rx/testing";
import type { MarbleScenario } from "./scenario";

export default {
  name: "a graph that does not stream answers with a MESSAGES_SNAPSHOT; its new assistant message is shown",
  covers: {
    [EventType.MESSAGES_SNAPSHOT]: "replaces history; unseen assistant messages as complete_item text",
  },
  events: {
    marble: "R-m-F|",
    values: {
      R: ev.runStarted(),
      m: {
        type: EventType.MESSAGES_SNAPSHOT,
        messages: [
          { id: "u1", role: "user", content: "Summarise the ticket" },
          { id: "a1", role: "assistant", content: "The printer on floor 3 is out of toner." },
        ],
      },
      F: ev.runFinished(),
    },
  },
  chunks: {
    marble: "--C-(f|)",
    values: {
      C: carbon.completeText("r1", "a1", "The printer on floor 3 is out of toner."),
      f: carbon.final("r1", [carbon.textItem("a1", "The printer on floor 3 is out of toner.")]),
    },
  },
} satisfies MarbleScenario;
