import { EventType } from "@ag-ui/core";
import { carbon, ev } from "carbon-agui-rx/testing";
import type { MarbleScenario } from "./scenario";

export default {
  name: "deltas that arrive together merge: the first goes out at once, the rest as one delta at the end of the frame",
  covers: {
    [EventType.TEXT_MESSAGE_CONTENT]: "consecutive deltas within one frame: one partial_item (coalesceDeltas)",
  },
  events: {
    marble: "R-S-(abcd)-E-F|",
    values: {
      R: ev.runStarted(),
      S: ev.textStart("m1"),
      a: ev.text("m1", "One "),
      b: ev.text("m1", "two "),
      c: ev.text("m1", "three "),
      d: ev.text("m1", "four"),
      E: ev.textEnd("m1"),
      F: ev.runFinished(),
    },
  },
  chunks: {
    marble: "----(pq)---C-(f|)",
    values: {
      p: carbon.partialText("r1", "m1", "One "),
      q: carbon.partialText("r1", "m1", "two three four"),
      C: carbon.completeText("r1", "m1", "One two three four"),
      f: carbon.final("r1", [carbon.textItem("m1", "One two three four")]),
    },
  },
} satisfies MarbleScenario;
