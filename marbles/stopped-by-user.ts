import { EventType } from "@ag-ui/core";
import { carbon, ev } from "carbon-agui-rx/testing";
import type { MarbleScenario } from "./scenario";

export default {
  name: "stopping mid-answer completes the open item as stopped and sends the final response",
  covers: {
    [EventType.TEXT_MESSAGE_CONTENT]: "on stop: complete_item stream_stopped, final_response",
  },
  events: {
    marble: "R-S-a-b-c-E-F|",
    values: { R: ev.runStarted(), S: ev.textStart("m1"), a: ev.text("m1", "Once "), b: ev.text("m1", "upon "), c: ev.text("m1", "a time"), E: ev.textEnd("m1"), F: ev.runFinished() },
  },
  stop: "-------x",
  chunks: {
    marble: "----p-q(sf|)",
    values: {
      p: carbon.partialText("r1", "m1", "Once "),
      q: carbon.partialText("r1", "m1", "upon "),
      s: carbon.completeText("r1", "m1", "Once upon ", true),
      f: carbon.final("r1", [carbon.textItem("m1", "Once upon ", true)]),
    },
  },
} satisfies MarbleScenario;
