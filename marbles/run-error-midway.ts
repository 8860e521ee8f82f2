import { EventType } from "@ag-ui/core";
import { MessageErrorState } from "../src/carbon";
import { AgUiRunError } from "../src/errors";
import { carbon, ev } from "carbon-agui-rx/testing";
import type { MarbleScenario } from "./scenario";

export default {
  name: "RUN_ERROR after partial text keeps the text, marks it failed while streaming, then errors",
  covers: {
    [EventType.RUN_ERROR]: "final_response with the text so far, error_state 3, then AgUiRunError",
  },
  events: {
    marble: "R-S-a-e|",
    values: { R: ev.runStarted(), S: ev.textStart("m1"), a: ev.text("m1", "The answer is"), e: ev.runError("model overloaded", "overloaded") },
  },
  chunks: {
    marble: "----p-(f#)",
    values: {
      p: carbon.partialText("r1", "m1", "The answer is"),
      f: carbon.final("r1", [carbon.textItem("m1", "The answer is")], { errorState: MessageErrorState.FAILED_WHILE_STREAMING }),
    },
    error: new AgUiRunError("model overloaded", "overloaded"),
  },
} satisfies MarbleScenario;
