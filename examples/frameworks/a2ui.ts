/**
 * A scripted agent that paints A2UI surfaces, behind the real
 * `@ag-ui/a2ui-middleware` (0.0.10): asked to book a room, it says so and
 * calls `render_a2ui` with a hotel booking form (the AG-UI dojo's hotel flow
 * is the model), its arguments streamed as a model would; the middleware
 * turns the call into `a2ui-surface` activity snapshots (building, then
 * painted, then painted with its data). The person's "Book" comes back as
 * `forwardedProps.a2uiAction.userAction`, and the agent confirms the
 * booking from what was typed. Asked for a "broken form", it fails to make
 * one: the middleware shows it retrying, then failed, and the agent says so.
 */
import { AbstractAgent, EventType, type BaseEvent, type RunAgentInput } from "@ag-ui/client";
import { A2UIMiddleware } from "@ag-ui/a2ui-middleware";
import { Observable } from "rxjs";
import { BOOKING_FORM, confirmation } from "../bookingForm";

export { BOOKING_FORM } from "../bookingForm";

/** The agent the middleware wraps: scripted, its events in the order a model's would come. */
export class BookingAgent extends AbstractAgent {
  override run(input: RunAgentInput): Observable<BaseEvent> {
    return new Observable<BaseEvent>((subscriber) => {
      let stopped = false;
      void (async () => {
        for (const event of bookingRun(input)) {
          if (stopped) return;
          subscriber.next(event);
          // A model's pace, so the surface is seen building.
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        subscriber.complete();
      })();
      return () => {
        stopped = true;
      };
    });
  }
}

/** The events of one run of the booking agent. */
function bookingRun(input: RunAgentInput): BaseEvent[] {
  const { threadId, runId } = input;
  const action = (input.forwardedProps as { a2uiAction?: { userAction?: { name?: string; context?: Record<string, unknown> } } } | undefined)?.a2uiAction?.userAction;
  const say = (text: string): BaseEvent[] => [
    { type: EventType.TEXT_MESSAGE_START, messageId: `say-${runId}`, role: "assistant" } as BaseEvent,
    ...text.split(/(?<= )/).map((delta) => ({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: `say-${runId}`, delta }) as BaseEvent),
    { type: EventType.TEXT_MESSAGE_END, messageId: `say-${runId}` } as BaseEvent,
  ];
  const run = (body: BaseEvent[]): BaseEvent[] => [{ type: EventType.RUN_STARTED, threadId, runId } as BaseEvent, ...body, { type: EventType.RUN_FINISHED, threadId, runId } as BaseEvent];
  if (action?.name === "book_room") return run(say(confirmation(action.context ?? {})));
  const asked = input.messages.at(-1);
  const text = typeof asked?.content === "string" ? asked.content.toLowerCase() : "";
  if (text.includes("broken")) return run([...say("Let me make that form. "), ...brokenForm(runId)]);
  if (!text.includes("book")) return run(say("Ask me to book a room, and I will give you a form for it."));
  return run([...say("Here is a booking form. "), ...renderCall(`render-${runId}`, BOOKING_FORM)]);
}

/** A `render_a2ui` call, its arguments streamed in pieces. */
function renderCall(toolCallId: string, args: object): BaseEvent[] {
  const json = JSON.stringify(args);
  const pieces: string[] = [];
  for (let at = 0; at < json.length; at += 48) pieces.push(json.slice(at, at + 48));
  return [
    { type: EventType.TOOL_CALL_START, toolCallId, toolCallName: "render_a2ui" } as BaseEvent,
    ...pieces.map((delta) => ({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta }) as BaseEvent),
    { type: EventType.TOOL_CALL_END, toolCallId } as BaseEvent,
  ];
}

/** A form the agent cannot get right: a component list with no root, twice, then its tool gives up. */
function brokenForm(runId: string): BaseEvent[] {
  const outer = `design-${runId}`;
  const bad = { surfaceId: "broken", components: [{ id: "main", component: "Column", children: ["missing"] }] };
  return [
    { type: EventType.TOOL_CALL_START, toolCallId: outer, toolCallName: "design_form" } as BaseEvent,
    { type: EventType.TOOL_CALL_ARGS, toolCallId: outer, delta: '{"intent":"form"}' } as BaseEvent,
    { type: EventType.TOOL_CALL_END, toolCallId: outer } as BaseEvent,
    ...renderCall(`render-a-${runId}`, bad),
    ...renderCall(`render-b-${runId}`, bad),
    {
      type: EventType.TOOL_CALL_RESULT,
      messageId: `design-result-${runId}`,
      toolCallId: outer,
      content: JSON.stringify({ code: "a2ui_recovery_exhausted", error: "The form had no root component", attempts: [{ attempt: 1, ok: false, errors: [] }, { attempt: 2, ok: false, errors: [] }] }),
    } as BaseEvent,
  ];
}

/** The booking agent behind the A2UI middleware, as an agent object `serveAgent` or `fromAgent` runs: each run goes through the middleware. */
export function createA2uiAgent(): { run(input: RunAgentInput): Observable<BaseEvent> } {
  const agent = new BookingAgent();
  const middleware = new A2UIMiddleware({ injectA2UITool: true, recovery: { maxAttempts: 3 } });
  return { run: (input) => middleware.run(input, agent) };
}
