import { EventType } from "@ag-ui/core";
import { carbon, ev } from "carbon-agui-rx/testing";
import type { MarbleScenario } from "./scenario";

export default {
  name: "shared state and activities update the conversation without touching the chat",
  covers: {
    [EventType.STATE_SNAPSHOT]: "conversation state (state$, next run); chat untouched",
    [EventType.STATE_DELTA]: "RFC 6902 patch of the state, atomic; chat untouched",
    [EventType.ACTIVITY_SNAPSHOT]: "conversation activities, onActivity; chat untouched",
    [EventType.ACTIVITY_DELTA]: "RFC 6902 patch of the activity, atomic; chat untouched",
  },
  events: {
    marble: "R-s-d-a-p-S-t-E-F|",
    values: {
      R: ev.runStarted(),
      s: { type: EventType.STATE_SNAPSHOT, snapshot: { plan: ["search"] } },
      d: { type: EventType.STATE_DELTA, delta: [{ op: "add", path: "/plan/-", value: "answer" }] },
      a: { type: EventType.ACTIVITY_SNAPSHOT, messageId: "act-1", activityType: "progress", content: { percent: 10 } },
      p: { type: EventType.ACTIVITY_DELTA, messageId: "act-1", activityType: "progress", patch: [{ op: "replace", path: "/percent", value: 100 }] },
      S: ev.textStart("m1"),
      t: ev.text("m1", "Done."),
      E: ev.textEnd("m1"),
      F: ev.runFinished(),
    },
  },
  chunks: {
    marble: "------------p-C-(f|)",
    values: {
      p: carbon.partialText("r1", "m1", "Done."),
      C: carbon.completeText("r1", "m1", "Done."),
      f: carbon.final("r1", [carbon.textItem("m1", "Done.")]),
    },
  },
} satisfies MarbleScenario;
