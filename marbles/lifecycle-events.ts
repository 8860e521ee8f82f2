import { EventType } from "@ag-ui/core";
import { carbon, ev } from "carbon-agui-rx/testing";
import type { MarbleScenario } from "./scenario";

export default {
  name: "steps, subagents and raw events reach onEvent only: the chat shows just the answer",
  covers: {
    [EventType.STEP_STARTED]: "onEvent only",
    [EventType.STEP_FINISHED]: "onEvent only",
    [EventType.SUBAGENT_STARTED]: "onEvent only",
    [EventType.SUBAGENT_FINISHED]: "onEvent only",
    [EventType.SUBAGENT_ERROR]: "onEvent only",
    [EventType.RAW]: "onEvent only",
  },
  events: {
    marble: "R-p-s-S-t-E-f-x-y-q-P-F|",
    values: {
      R: ev.runStarted(),
      p: ev.stepStarted("plan"),
      s: { type: EventType.SUBAGENT_STARTED, subagentRunId: "sub-1", name: "researcher" },
      S: ev.textStart("m1"),
      t: ev.text("m1", "Researched."),
      E: ev.textEnd("m1"),
      f: { type: EventType.SUBAGENT_FINISHED, subagentRunId: "sub-1" },
      x: { type: EventType.SUBAGENT_STARTED, subagentRunId: "sub-2", name: "critic" },
      y: { type: EventType.SUBAGENT_ERROR, subagentRunId: "sub-2", message: "timed out" },
      q: { type: EventType.RAW, event: { provider: "openai", chunk: 1 }, source: "openai" },
      P: ev.stepFinished("plan"),
      F: ev.runFinished(),
    },
  },
  chunks: {
    marble: "--------p-C-----------(f|)",
    values: {
      p: carbon.partialText("r1", "m1", "Researched."),
      C: carbon.completeText("r1", "m1", "Researched."),
      f: carbon.final("r1", [carbon.textItem("m1", "Researched.")]),
    },
  },
} satisfies MarbleScenario;
