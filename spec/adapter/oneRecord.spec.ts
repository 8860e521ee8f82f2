/**
 * The thread's log is the one record: each fact the chat, the history, the
 * cards and the versions show is read from it once. Each spec here is a
 * defect of keeping them apart (issue 43), as a person or an agent met it.
 */
import { EventType, type BaseEvent, type Interrupt, type Message, type RunAgentInput } from "@ag-ui/core";
import { firstValueFrom, Subject } from "rxjs";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { CarbonAgUiAdapter, type CarbonAgUiAdapterOptions } from "../../src/adapter";
import type { CarbonMessageResponse } from "../../src/carbon";
import { memoryStore } from "../../src/persistence/memoryStore";
import { ev } from "../support/builders";
import { waitUntil } from "../support/runs";

const request = (text: string, id = `u-${text}`) => ({ id, input: { text }, history: {} });
const sendOptions = () => ({ signal: new AbortController().signal, silent: false });
const finals = (carbon: CarbonRecorder): CarbonMessageResponse[] => carbon.chunks.flatMap((chunk) => ("final_response" in chunk ? [chunk.final_response] : []));
const steps = (response: CarbonMessageResponse | undefined) => (response?.message_options?.chain_of_thought ?? []).map((step) => [step.title ?? step.tool_name, step.status]);
const call = (id: string, name: string, args = "{}") => ({ id, type: "function" as const, function: { name, arguments: args } });

/** An adapter whose runs are played from `runs`, one per run, recording each input. */
function scripted(runs: ((input: RunAgentInput) => unknown)[], extra: Partial<CarbonAgUiAdapterOptions> = {}) {
  const inputs: RunAgentInput[] = [];
  const errors: unknown[] = [];
  const adapter = new CarbonAgUiAdapter({
    threadId: "thread-1",
    coalesce: false,
    onError: (error) => errors.push(error),
    run: (input) => {
      inputs.push(input);
      const next = runs[inputs.length - 1];
      if (!next) throw new Error(`no run scripted for run ${inputs.length}`);
      return next(input) as never;
    },
    ...extra,
  });
  return { adapter, inputs, errors, carbon: new CarbonRecorder() };
}

describe("one record of the thread", () => {
  it("keeps what the agent sent and nothing more: a supervisor's handoff whose result only its snapshot holds shows done, and the next run carries the agent's result alone", async () => {
    const question: Message = { id: "u-Write", role: "user", content: "Write" };
    const handoff: Message = { id: "s1", role: "assistant", toolCalls: [call("h1", "transfer_to_writer")] };
    const transferred: Message = { id: "r-h1", role: "tool", toolCallId: "h1", content: "Successfully transferred to writer" };
    const draft: Message = { id: "w1", role: "assistant", content: "Draft." };
    const { adapter, inputs, carbon } = scripted([
      () => ev.run(ev.toolStart("h1", "transfer_to_writer", "s1"), ev.toolArgs("h1", "{}"), ev.toolEnd("h1"), ...ev.message("w1", "Draft."), { type: EventType.MESSAGES_SNAPSHOT, messages: [question, handoff, transferred, draft] } as never),
      () => ev.run(),
    ]);
    await adapter.sendMessage(request("Write"), sendOptions(), carbon);
    await adapter.sendMessage(request("More"), sendOptions(), carbon);
    expect(steps(finals(carbon)[0])).toEqual([["transfer_to_writer", "success"]]);
    expect(inputs[1]!.messages.filter((message) => message.role === "tool")).toEqual([transferred]);
  });

  it("shows a call a later run announces again as the call already known: no new step (LangGraph re-announces the last turn's handoff)", async () => {
    const handoff = [ev.toolStart("h1", "transfer_to_researcher", "s1"), ev.toolArgs("h1", "{}"), ev.toolEnd("h1"), ev.toolResult("h1", "Successfully transferred to researcher")];
    const { adapter, carbon, inputs } = scripted([() => ev.run(...handoff, ...ev.message("a1", "Notes.")), () => ev.run(...handoff, ...ev.message("a2", "More notes."))]);
    await adapter.sendMessage(request("Research"), sendOptions(), carbon);
    await adapter.sendMessage(request("Again"), sendOptions(), carbon);
    const [first, second] = finals(carbon);
    expect(steps(first)).toEqual([["transfer_to_researcher", "success"]]);
    expect(steps(second)).toEqual([]);
    expect(second!.output.generic.map((item) => item.text)).toEqual(["More notes."]);
    // The history keeps the call as it was: one result.
    expect(adapter.messages.filter((message) => message.role === "tool")).toHaveLength(1);
    expect(inputs).toHaveLength(2);
  });

  it("shows nothing again of what the person saw when a resume inside a subgraph streams it anew, though the interrupt's snapshot had dropped it", async () => {
    const approval: Interrupt = { id: "i1", reason: "approval", toolCallId: "c1" };
    const { adapter, carbon } = scripted([
      () => [ev.runStarted(), ...ev.message("w1", "Gathering sources."), ev.toolStart("c1", "publish", "w2"), ev.toolEnd("c1"), { type: EventType.MESSAGES_SNAPSHOT, messages: [{ id: "u-Go", role: "user", content: "Go" }] } as BaseEvent, ev.runFinished({ outcome: { type: "interrupt", interrupts: [approval] } })],
      () => ev.run(...ev.message("w1", "Gathering sources."), ev.toolResult("c1", "published"), ...ev.message("w3", "Done.")),
    ]);
    await adapter.sendMessage(request("Go"), sendOptions(), carbon);
    await adapter.respondToInterrupt({ type: "approve" }, carbon);
    const resumed = finals(carbon).at(-1)!;
    expect(resumed.output.generic.filter((item) => item.response_type === "text").map((item) => item.text)).toEqual(["Done."]);
  });

  it("shows nothing again when a resume runs the asking step anew and its words come under a new id (LangGraph keeps a node's messages once the node is done); a reload shows what live showed", async () => {
    const persistence = { store: memoryStore(), channel: false as const };
    const approval: Interrupt = { id: "i1", reason: "approval", message: "May I read the archive?" };
    const asked = { id: "u-Go", role: "user", content: "Go" } as const;
    const { adapter, carbon } = scripted(
      [
        () => [ev.runStarted(), ...ev.message("g1", "Gathered."), ...ev.message("a1", "An archive may know more."), { type: EventType.MESSAGES_SNAPSHOT, messages: [asked] } as BaseEvent, ev.runFinished({ outcome: { type: "interrupt", interrupts: [approval] } })],
        () =>
          ev.run(...ev.message("a2", "An archive may know more."), ...ev.message("r1", "Read it."), {
            type: EventType.MESSAGES_SNAPSHOT,
            messages: [asked, { id: "g1", role: "assistant", content: "Gathered." }, { id: "a2", role: "assistant", content: "An archive may know more." }, { id: "r1", role: "assistant", content: "Read it." }],
          } as never),
        // A later turn that says the same words is no resume: they are new.
        () => ev.run(...ev.message("a3", "An archive may know more.")),
      ],
      { persistence },
    );
    await adapter.sendMessage(request("Go"), sendOptions(), carbon);
    await adapter.respondToInterrupt({ type: "approve" }, carbon);
    await adapter.sendMessage(request("Again"), sendOptions(), carbon);
    const texts = (response: CarbonMessageResponse) => response.output.generic.flatMap((item) => (item.response_type === "text" ? [item.text] : []));
    expect(finals(carbon).map(texts)).toEqual([["Gathered.", "An archive may know more."], ["Read it."], ["An archive may know more."]]);
    // As @ag-ui/client reconciles the snapshot: the messages held stay where they are, the new one (g1, dropped at the interrupt) after them.
    expect(adapter.messages.map((message) => message.id)).toEqual(["u-Go", "a2", "r1", "g1", "u-Again", "a3"]);
    await adapter.saveNow();
    const restored = await new CarbonAgUiAdapter({ threadId: "thread-1", run: () => [], persistence }).loadHistory();
    expect(restored.flatMap(({ message }) => ("output" in message ? [texts(message as CarbonMessageResponse)] : []))).toEqual(finals(carbon).map(texts));
  });

  it("decides once which calls are the chat's: of two frontend tools, only the call the outcome names runs its handler and shows done; the other is as the agent left it", async () => {
    const ran: string[] = [];
    const tool = (name: string) => ({ name, description: name, parameters: { type: "object" }, handler: () => (ran.push(name), "done") });
    const { adapter, inputs, carbon } = scripted(
      [() => [ev.runStarted(), ev.toolStart("a1", "paint"), ev.toolEnd("a1"), ev.toolStart("b1", "locate"), ev.toolEnd("b1"), ev.runFinished({ outcome: { type: "success", pendingToolCallIds: ["a1"] } })], () => ev.run(...ev.message("m1", "Painted."))],
      { tools: [tool("paint"), tool("locate")] },
    );
    await adapter.sendMessage(request("Paint"), sendOptions(), carbon);
    expect(ran).toEqual(["paint"]);
    expect(steps(finals(carbon)[0])).toEqual([
      ["paint", "success"],
      ["locate", "failure"],
    ]);
    expect(inputs[1]!.messages.filter((message) => message.role === "tool").map((message) => (message as { toolCallId: string }).toolCallId)).toEqual(["a1"]);
  });

  it("never sends a decision the person did not give: an interrupt that comes while the answer to another waits holds the resume until it is answered too", async () => {
    const later = new Subject<BaseEvent>();
    const stream = new Subject<BaseEvent>();
    const { adapter, inputs, carbon } = scripted([() => stream, () => ev.run(...ev.message("m2", "Both done."))]);
    const sent = adapter.sendMessage(request("Two things"), sendOptions(), carbon);
    for (const event of [ev.runStarted("r1"), ev.runFinished({ runId: "r1", outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "approval" }] } })]) stream.next(event);
    await sent;
    // The stream brings a later run (a turn of its own), and the answer to i1 waits behind it.
    stream.next(ev.runStarted("r2"));
    await waitUntil(() => adapter.pendingInterrupts.length === 1);
    const answered = adapter.respondToInterrupt({ type: "approve" }, carbon, {}, "i1");
    later.subscribe(stream);
    stream.next(ev.runFinished({ runId: "r2", outcome: { type: "interrupt", interrupts: [{ id: "i2", reason: "approval" }] } }));
    stream.complete();
    await answered;
    expect(inputs).toHaveLength(1);
    expect(adapter.pendingInterrupts.map((entry) => [entry.interrupt.id, entry.decision?.type])).toEqual([
      ["i1", "approve"],
      ["i2", undefined],
    ]);
    expect(adapter.interruptAnswer("i2")).toBeUndefined();
    await adapter.respondToInterrupt({ type: "reject" }, carbon, {}, "i2");
    expect(inputs[1]!.resume).toEqual([
      { interruptId: "i1", status: "resolved", payload: { approved: true } },
      { interruptId: "i2", status: "cancelled" },
    ]);
    expect([adapter.interruptAnswer("i1"), adapter.interruptAnswer("i2")]).toEqual(["approve", "reject"]);
  });

  it("reads the latest answer once: after an action on a surface, the versions bar is under its answer, and the question can be asked again", async () => {
    const surface = { type: EventType.ACTIVITY_SNAPSHOT, messageId: "s1", activityType: "a2ui-surface", content: { a2ui_operations: [{ createSurface: { surfaceId: "form", catalogId: "basic" } }] } } as never;
    const { adapter, carbon, inputs } = scripted([() => ev.run(surface), () => ev.run(...ev.message("m2", "Booked.")), () => ev.run(...ev.message("m3", "Another try."))], { answerVersions: true });
    await adapter.sendMessage(request("Book"), sendOptions(), carbon);
    await adapter.sendSurfaceAction({ name: "book", surfaceId: "form", sourceComponentId: "b", timestamp: "2026-12-01T10:00:00.000Z", context: {} }, carbon);
    const booked = finals(carbon).at(-1)!;
    expect(await firstValueFrom(adapter.answerVersions$)).toMatchObject({ responseId: booked.id, requestId: "u-Book", index: 0, count: 1, canRegenerate: true });
    await adapter.regenerate(carbon);
    expect(inputs[2]!.messages.map((message) => message.id)).toEqual(["u-Book"]);
    expect(await firstValueFrom(adapter.answerVersions$)).toMatchObject({ index: 1, count: 2 });
  });

  it("labels how a run ended once: an outcome of cancelled is a stop for the turn, the log and a reload alike", async () => {
    const store = memoryStore();
    const persistence = { store, channel: false as const };
    const { adapter, carbon, errors } = scripted([() => [ev.runStarted(), ...ev.message("m1", "Half"), ev.runFinished({ outcome: { type: "cancelled" } })]], { persistence });
    await adapter.sendMessage(request("Go"), sendOptions(), carbon);
    expect(errors).toEqual([]);
    await adapter.saveNow();
    const saved = (await store.load("thread-1")) as { entries: { kind: string; ended?: string }[] };
    expect(saved.entries.filter((entry) => entry.kind === "run").map((entry) => entry.ended)).toEqual(["stopped"]);
    const restored = await new CarbonAgUiAdapter({ threadId: "thread-1", run: () => [], persistence }).loadHistory();
    const response = restored.find(({ message }) => "output" in message)!.message as CarbonMessageResponse;
    expect(response.output.generic).toEqual(finals(carbon)[0]!.output.generic);
  });
});
