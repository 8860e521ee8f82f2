import { EventType } from "@ag-ui/core";
import { carbon, ev } from "carbon-agui-rx/testing";
import type { MarbleScenario } from "./scenario";

export default {
  name: "steps and raw events reach onEvent only: the chat shows just the answer",
  covers: {
    [EventType.STEP_STARTED]: "onEvent only",
    [EventType.STEP_FINISHED]: "onEvent only",
    [EventType.RAW]: "onEvent only",
  },
  events: {
    marble: "R-p-S-t-E-q-P-F|",
    values: {
      R: ev.runStarted(),
      p: ev.stepStarted("plan"),
      S: ev.textStart("m1"),
      t: ev.text("m1", "Researched."),
      E: ev.textEnd("m1"),
      q: { type: EventType.RAW, event: { provider: "openai", chunk: 1 }, source: "openai" },
      P: ev.stepFinished("plan"),
      F: ev.runFinished(),
    },
  },
  chunks: {
    marble: "------p-C-----(f|)",
    values: {
      p: carbon.partialText("r1", "m1", "Researched."),
      C: carbon.completeText("r1", "m1", "Researched."),
      f: carbon.final("r1", [carbon.textItem("m1", "Researched.")]),
    },
  },
} satisfies MarbleScenario;
