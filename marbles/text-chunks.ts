import { EventType } from "@ag-ui/core";
import { carbon, ev } from "carbon-agui-rx/testing";
import type { MarbleScenario } from "./scenario";

export default {
  name: "TEXT_MESSAGE_CHUNK events stream like explicit messages, two messages become two items",
  covers: {
    [EventType.TEXT_MESSAGE_CHUNK]: "expanded to START/CONTENT/END: partial_item deltas, complete_item",
  },
  events: {
    marble: "R-a-b---c---F|",
    values: {
      R: ev.runStarted(),
      a: ev.textChunk({ messageId: "m1", delta: "First" }),
      b: ev.textChunk({ messageId: "m2", delta: "Second" }),
      c: ev.textChunk({ delta: " part" }),
      F: ev.runFinished(),
    },
  },
  chunks: {
    marble: "--p-(Cq)r---(Df|)",
    values: {
      p: carbon.partialText("r1", "m1", "First"),
      C: carbon.completeText("r1", "m1", "First"),
      q: carbon.partialText("r1", "m2", "Second"),
      r: carbon.partialText("r1", "m2", " part"),
      D: carbon.completeText("r1", "m2", "Second part"),
      f: carbon.final("r1", [carbon.textItem("m1", "First"), carbon.textItem("m2", "Second part")]),
    },
  },
} satisfies MarbleScenario;
