import { EventType } from "@ag-ui/core";
import { carbon, ev } from "carbon-agui-rx/testing";
import type { MarbleScenario } from "./scenario";

const words = ["One ", "two ", "three ", "four ", "five ", "six"];

export default {
  name: "a page whose redraws grow costly widens the merge window: deltas wait for it, and the message's end sends them",
  covers: {
    [EventType.TEXT_MESSAGE_CONTENT]: "partial_item deltas, merged in windows of the reported render cost ÷ 0.2 (coalesceDeltas' adaptive window)",
  },
  events: {
    marble: "R-S-a-b-c-d-e-f-E-----F|",
    values: {
      R: ev.runStarted(),
      S: ev.textStart("m1"),
      ...Object.fromEntries(words.map((word, index) => ["abcdef"[index]!, ev.text("m1", word)])),
      E: ev.textEnd("m1"),
      F: ev.runFinished(),
    },
  },
  // After the first delta's hand-over, a redraw cost of 3 ms: windows of 15 frames from then on, so b's window holds c…f until E.
  renderCost: { marble: "-----x", values: { x: 3 } },
  chunks: {
    marble: "----a-b---------(xC)--(f|)",
    values: {
      a: carbon.partialText("r1", "m1", "One "),
      b: carbon.partialText("r1", "m1", "two "),
      x: carbon.partialText("r1", "m1", "three four five six"),
      C: carbon.completeText("r1", "m1", words.join("")),
      f: carbon.final("r1", [carbon.textItem("m1", words.join(""))]),
    },
  },
} satisfies MarbleScenario;
