import type { Tool } from "@ag-ui/core";

/**
 * The demo's tool the person answers: both pages declare it in the adapter's `tools` with no `handler`, so a call of
 * it waits for the person. Its description is what the decision card asks, and its JSON Schema is what the card
 * checks edited arguments against before anything is sent.
 */
export const SCHEDULE_MEETING = {
  name: "schedule_meeting",
  description: "Book this meeting in your calendar? It needs a title and a start time (YYYY-MM-DD HH:MM, local time).",
  parameters: {
    type: "object",
    properties: {
      title: { type: "string", minLength: 1, description: "What the meeting is called" },
      time: { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}$", description: "When it starts, local time: YYYY-MM-DD HH:MM" },
    },
    required: ["title", "time"],
    additionalProperties: false,
  },
} satisfies Tool;

/** The arguments of a `schedule_meeting` call. */
export interface Meeting {
  title: string;
  time: string;
}
