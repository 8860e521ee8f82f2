/**
 * A2UI surfaces from the real `@ag-ui/a2ui-middleware` (0.0.10) around a
 * scripted booking agent (examples/frameworks/a2ui.ts), served over SSE on
 * loopback and read by the adapter: the surface is one item of the answer
 * that follows the activity (building, painted), the person's action goes
 * back as the middleware expects it and the agent's reply streams as a turn,
 * and the refusals (a double send, an earlier answer's surface) send nothing.
 */
import type { RunAgentInput } from "@ag-ui/core";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { createA2uiAgent } from "../../examples/frameworks/a2ui";
import type { RunningServer } from "../../examples/frameworks/copilotkit";
import { serveAgent } from "../../examples/frameworks/serveAgent";
import { CarbonAgUiAdapter } from "../../src/adapter";
import type { CarbonStreamChunk } from "../../src/carbon";
import type { CarbonAgUiError } from "../../src/errors";
import { AgUiSurfaceError } from "../../src/errors";
import type { A2uiUserAction } from "../../src/operators/map/a2uiSurfaces";
import { createSseRunner } from "../../src/runners/createSseRunner";
import { memoryStore } from "../../src/persistence/memoryStore";
import { lastValueFrom, toArray } from "rxjs";
import { replayServerThread } from "../support/threads";
import type { BaseEvent } from "@ag-ui/core";

const finals = (carbon: CarbonRecorder) => carbon.chunks.flatMap((chunk: CarbonStreamChunk) => ("final_response" in chunk ? [chunk.final_response] : []));
const book = (context: Record<string, unknown>): A2uiUserAction => ({ name: "book_room", surfaceId: "booking", sourceComponentId: "book", timestamp: new Date().toISOString(), context });

describe("A2UI surfaces from the real middleware", () => {
  let server: RunningServer;
  const inputs: RunAgentInput[] = [];
  beforeAll(async () => {
    const agent = createA2uiAgent();
    server = await serveAgent({ run: (input: RunAgentInput) => (inputs.push(input), agent.run(input)) });
  });
  afterAll(() => server.close());

  const setUp = (extra: Partial<ConstructorParameters<typeof CarbonAgUiAdapter>[0]> = {}) => {
    const errors: CarbonAgUiError[] = [];
    const adapter = new CarbonAgUiAdapter({ run: createSseRunner({ url: server.url }), onError: (error) => errors.push(error), ...extra });
    return { adapter, errors, carbon: new CarbonRecorder() };
  };
  const say = (adapter: CarbonAgUiAdapter, carbon: CarbonRecorder, text: string) => adapter.sendMessage({ id: `u-${text}`, input: { text } }, { signal: new AbortController().signal }, carbon);

  it("shows the surface as one item of the answer, following the activity to its painted form with its data", async () => {
    const { adapter, errors, carbon } = setUp();
    await say(adapter, carbon, "Book a room");
    const [answer] = finals(carbon);
    const items = answer!.output.generic;
    const surface = items.find((item) => item.response_type === "user_defined")?.user_defined as { kind: string; activityId: string };
    expect(items.map((item) => item.response_type)).toEqual(["text", "user_defined"]);
    expect(surface.kind).toBe("a2ui");
    const activity = adapter.activities.get(surface.activityId)!;
    expect(activity.activityType).toBe("a2ui-surface");
    const operations = (activity.content as { a2ui_operations: object[] }).a2ui_operations;
    expect(operations.map((operation) => Object.keys(operation).find((key) => key !== "version"))).toEqual(["createSurface", "updateComponents", "updateDataModel"]);
    expect(errors).toEqual([]);
  });

  it("sends the person's action as the middleware expects it, with no message of theirs, and shows the agent's reply", async () => {
    const { adapter, errors, carbon } = setUp();
    await say(adapter, carbon, "Book a room");
    const before = adapter.messages.length;
    await adapter.sendSurfaceAction(book({ hotel: ["harbour"], name: "Ada", nights: 3, guests: "2", breakfast: true }), carbon);
    expect(inputs.at(-1)!.forwardedProps.a2uiAction).toEqual({ userAction: expect.objectContaining({ name: "book_room", surfaceId: "booking", sourceComponentId: "book", context: expect.objectContaining({ name: "Ada" }) }) });
    expect(adapter.messages.slice(before).map((message) => message.role)).toEqual(["assistant"]);
    expect(carbon.transcript().split("\n").at(-1)).toBe("Assistant: Booked Harbour View for Ada: 3 nights, 2 guests, breakfast included.");
    expect(errors).toEqual([]);
  });

  it("sends a double click once, and refuses the surface of an earlier answer, sending nothing", async () => {
    const { adapter, carbon } = setUp();
    await say(adapter, carbon, "Book a room");
    const runs = inputs.length;
    const first = adapter.sendSurfaceAction(book({ name: "Ada" }), carbon);
    await expect(adapter.sendSurfaceAction(book({ name: "Ada" }), carbon)).rejects.toThrow(AgUiSurfaceError);
    await first;
    expect(inputs.length).toBe(runs + 1);
    await say(adapter, carbon, "Thanks");
    await expect(adapter.sendSurfaceAction(book({ name: "Bo" }), carbon)).rejects.toThrow("belongs to an earlier answer");
    expect(inputs.length).toBe(runs + 2);
  });

  it("shows a form the agent could not make as failed, and the chat goes on", async () => {
    const { adapter, errors, carbon } = setUp();
    await say(adapter, carbon, "Make me a broken form");
    const [answer] = finals(carbon);
    const surfaces = answer!.output.generic.filter((item) => item.response_type === "user_defined");
    expect(surfaces.length).toBeGreaterThan(0);
    const last = adapter.activities.get((surfaces.at(-1)!.user_defined as { activityId: string }).activityId)!;
    expect(last.content).toMatchObject({ status: "failed" });
    expect(errors).toEqual([]);
    await say(adapter, carbon, "Book a room");
    expect(finals(carbon)).toHaveLength(2);
  });

  it("restores the surface live after a reload, painted with its data, and its action still goes to the agent", async () => {
    const store = memoryStore();
    const first = setUp({ threadId: "a2ui-reload", persistence: { store } });
    await say(first.adapter, first.carbon, "Book a room");
    const { activityId } = finals(first.carbon)[0]!.output.generic.find((item) => item.response_type === "user_defined")!.user_defined as { activityId: string };
    await first.adapter.saveNow();
    first.adapter.dispose(); // the page that went away

    const again = setUp({ threadId: "a2ui-reload", persistence: { store } });
    const history = await again.adapter.loadHistory(again.carbon);
    const shown = history.flatMap((item) => ("output" in item.message ? item.message.output.generic : []));
    expect(shown.filter((item) => item.response_type === "user_defined").map((item) => item.user_defined)).toEqual([{ kind: "a2ui", activityId }]);
    expect(again.adapter.activities.get(activityId)!.content).toEqual(first.adapter.activities.get(activityId)!.content);
    expect(again.adapter.isSurfaceCurrent(activityId)).toBe(true);
    await again.adapter.sendSurfaceAction(book({ hotel: ["old-town"], name: "Bo", nights: 1, guests: "1" }), again.carbon, { activityId });
    expect(again.carbon.transcript().split("\n").at(-1)).toBe("Assistant: Booked Old Town Inn for Bo: 1 night, 1 guest.");
    expect(again.errors).toEqual([]);
  });

  it("restores the surface from the agent's server: a connect replay of the recorded run shows it in its answer, live, with its data", async () => {
    const input: RunAgentInput = { threadId: "t-replay", runId: "r1", messages: [{ id: "u1", role: "user", content: "Book a room" }], state: {}, tools: [], context: [], forwardedProps: {} };
    const recorded = await lastValueFrom(createA2uiAgent().run(input).pipe(toArray()));
    recorded[0] = { ...recorded[0]!, input } as BaseEvent;
    const replayed = replayServerThread({ threadId: "t-replay", runs: [recorded] }, "2026-12-02T10:00:00.000Z");
    const surface = replayed.responses[0]!.output.generic.find((item) => item.response_type === "user_defined");
    expect(surface).toMatchObject({ user_defined: { kind: "a2ui", activityId: "a2ui-surface-render-r1" } });
    const [activity] = replayed.conversation.activities.values();
    expect(activity).toMatchObject({ messageId: "a2ui-surface-render-r1", activityType: "a2ui-surface", requestId: "u1" });
    const operations = (activity!.content as { a2ui_operations: { updateDataModel?: { value: unknown } }[] }).a2ui_operations;
    expect(operations.at(-1)!.updateDataModel!.value).toEqual({ booking: expect.objectContaining({ hotel: ["harbour"], nights: 2 }) });
  });
});
