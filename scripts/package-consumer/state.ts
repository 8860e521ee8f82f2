// Shared state and validation through the packed build: fast-json-patch and zod/v4 load under this module system.
import { EventType, type BaseEvent } from "@ag-ui/core";
import { agUiToCarbon, Conversation } from "carbon-agui-rx";
import { ev, marbleTest } from "carbon-agui-rx/testing";
import { lastValueFrom, of } from "rxjs";

export async function checkSharedState(label: string): Promise<void> {
  const conversation = new Conversation();
  const events: BaseEvent[] = [
    { type: EventType.RUN_STARTED, threadId: "t1", runId: "r1" },
    { type: EventType.STATE_SNAPSHOT, snapshot: { steps: ["search"] } },
    { type: EventType.STATE_DELTA, delta: [{ op: "add", path: "/steps/-", value: "answer" }] },
    { type: EventType.RUN_FINISHED, threadId: "t1", runId: "r1" },
  ];
  await lastValueFrom(of(...events).pipe(agUiToCarbon({ conversation })));
  if (JSON.stringify(conversation.state) !== '{"steps":["search","answer"]}') throw new Error(`${label}: shared state not applied`);
  console.log(`${label} shared state: ok`);
  marbleTest(({ agent, expectCarbon }) => {
    expectCarbon(agent("abc|", { a: ev.runStarted(), b: ev.textChunk({ messageId: "m1", delta: "Hi" }), c: ev.runFinished() })).toShow("Assistant: Hi");
  });
  console.log(`${label} carbon-agui-rx/testing: ok`);
}
