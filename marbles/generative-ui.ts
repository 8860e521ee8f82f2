import { EventType } from "@ag-ui/core";
import { carbon, ev } from "carbon-agui-rx/testing";
import type { MarbleScenario } from "./scenario";

const card = {
  response_type: "card",
  body: [{ response_type: "text", text: "Flight LH 123, 09:40" }],
  footer: [{ response_type: "button", button_type: "post_back", label: "Book", value: { input: { text: "book LH 123" } } }],
  streaming_metadata: { id: "flight" },
};

export default {
  name: "a carbon.item CUSTOM event becomes a native Carbon card between streamed text",
  covers: {
    [EventType.CUSTOM]: "carbon.item / carbon.items: native complete_item (allowlisted); other names onEvent only",
  },
  events: {
    marble: "R-S-a-E-c-F|",
    values: { R: ev.runStarted(), S: ev.textStart("m1"), a: ev.text("m1", "Here is a flight:"), E: ev.textEnd("m1"), c: ev.custom("carbon.item", card), F: ev.runFinished() },
  },
  chunks: {
    marble: "----p-C-k-(f|)",
    values: {
      p: carbon.partialText("r1", "m1", "Here is a flight:"),
      C: carbon.completeText("r1", "m1", "Here is a flight:"),
      k: { complete_item: card, streaming_metadata: { response_id: "r1" } },
      f: carbon.final("r1", [carbon.textItem("m1", "Here is a flight:"), card]),
    },
  },
} satisfies MarbleScenario;
