import { EventType } from "@ag-ui/core";
import type { CarbonStreamChunk } from "../src/carbon";
import { OPTIONS_CARRIER_ID } from "../src/operators/render/toStreamChunks";
import { carbon, ev } from "carbon-agui-rx/testing";
import type { MarbleScenario } from "./scenario";

const reasoning = (content?: string): CarbonStreamChunk =>
  carbon.options("r1", { reasoning: { steps: [{ title: "Reasoning", ...(content !== undefined && { content }) }] } });

export default {
  name: "reasoning streams live into Carbon's reasoning panel, its encrypted value stays out of sight",
  covers: {
    [EventType.REASONING_START]: "frames reasoning messages",
    [EventType.REASONING_MESSAGE_START]: "reasoning step (live message_options)",
    [EventType.REASONING_MESSAGE_CONTENT]: "reasoning step content grows",
    [EventType.REASONING_MESSAGE_END]: "history reasoning message",
    [EventType.REASONING_MESSAGE_CHUNK]: "expanded to reasoning START/CONTENT/END",
    [EventType.REASONING_ENCRYPTED_VALUE]: "kept in history, never shown",
    [EventType.REASONING_END]: "frames reasoning messages",
  },
  events: {
    marble: "R-s-a---b-x-e-S-t-E-F|",
    values: {
      R: ev.runStarted(),
      s: { type: EventType.REASONING_START, messageId: "think" },
      a: ev.reasoningChunk({ messageId: "r1", delta: "Weigh the " }),
      b: ev.reasoningChunk({ delta: "options." }),
      x: { type: EventType.REASONING_ENCRYPTED_VALUE, subtype: "message", entityId: "r1", encryptedValue: "gAAAA" },
      e: { type: EventType.REASONING_END, messageId: "think" },
      S: ev.textStart("m1"),
      t: ev.text("m1", "Option B."),
      E: ev.textEnd("m1"),
      F: ev.runFinished(),
    },
  },
  chunks: {
    marble: "----(AB)C-------T-D-(f|)",
    values: {
      A: reasoning(),
      B: reasoning("Weigh the "),
      C: reasoning("Weigh the options."),
      T: carbon.partialText("r1", OPTIONS_CARRIER_ID, "Option B."),
      D: carbon.completeText("r1", OPTIONS_CARRIER_ID, "Option B."),
      f: {
        final_response: {
          id: "r1",
          output: { generic: [carbon.textItem(OPTIONS_CARRIER_ID, "Option B.")] },
          message_options: { reasoning: { steps: [{ title: "Reasoning", content: "Weigh the options." }] } },
        },
      },
    },
  },
} satisfies MarbleScenario;
