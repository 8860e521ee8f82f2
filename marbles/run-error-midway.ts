import { EventType } from "@ag-ui/core";
import { AgUiRunError } from "../src/errors";
import { carbon, ev } from "carbon-agui-rx/testing";
import type { MarbleScenario } from "./scenario";

export default {
  name: "RUN_ERROR after partial text keeps the text, ends it with an inline error saying why, then errors",
  covers: {
    [EventType.RUN_ERROR]: "final_response with the text so far and an inline error with its message, then AgUiRunError",
  },
  events: {
    marble: "R-S-a-e|",
    values: { R: ev.runStarted(), S: ev.textStart("m1"), a: ev.text("m1", "The answer is"), e: ev.runError("model overloaded", "overloaded") },
  },
  chunks: {
    marble: "----p-(f#)",
    values: {
      p: carbon.partialText("r1", "m1", "The answer is"),
      f: carbon.final("r1", [carbon.textItem("m1", "The answer is"), carbon.inlineError("This answer is incomplete. model overloaded.")]),
    },
    error: new AgUiRunError("model overloaded", "overloaded"),
  },
} satisfies MarbleScenario;
