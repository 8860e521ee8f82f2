/**
 * A thread from AG-UI's `connect`: its recorded runs are the ones with both
 * ends, a run still open is the live one, and nothing is read off a clock
 * but "what the stream sent together" (one task of the adapter's scheduler).
 */
import type { BaseEvent } from "@ag-ui/core";
import { concat, NEVER, Observable, of, Subject, timer, type ObservableInput, type SchedulerLike } from "rxjs";
import { VirtualTimeScheduler } from "rxjs";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { CarbonAgUiAdapter } from "../../src/adapter";
import type { CarbonHistoryItem, CarbonHistoryResponse } from "../../src/persistence/restore";
import type { ServerThreadOfRuns } from "../../src/threads/agentThreads";
import { connectThreads, implementsConnect } from "../../src/threads/connectThreads";
import { ev } from "../support/builders";
import { waitUntil } from "../support/runs";

const THREAD = "thread-1";
const started = (runId: string, messages: { id: string; role: "user"; content: string }[]) => ({ ...ev.runStarted(runId, THREAD), input: { threadId: THREAD, runId, messages, state: {}, tools: [], context: [], forwardedProps: {} } }) as BaseEvent;
const u1 = { id: "u1", role: "user" as const, content: "Show me Oslo" };
const u2 = { id: "u2", role: "user" as const, content: "And the weather?" };
const image = { response_type: "image", source: "https://example.com/oslo.png", alt_text: "Oslo" } as never;
const firstRun = () => [started("r1", [u1]), ...ev.message("a1", "Here it is."), ev.carbonItem(image), ev.runFinished({ runId: "r1" })];
const secondRun = () => [started("r2", [u1, { id: "a1", role: "assistant", content: "Here it is." } as never, u2]), ...ev.message("a2", "Mild, 9 °C."), ev.runFinished({ runId: "r2" })];

/** Events with a pause of `pauseMs` (virtual) before the ones listed after each number. */
function paced(scheduler: SchedulerLike, ...parts: (BaseEvent[] | number)[]): Observable<BaseEvent> {
  return concat(...parts.map((part) => (typeof part === "number" ? new Observable<never>((subscriber) => timer(part, scheduler).subscribe({ complete: () => subscriber.complete() })) : of(...part))));
}

const responses = (history: CarbonHistoryItem[]) => history.filter((item) => "output" in item.message).map((item) => item.message as CarbonHistoryResponse);
const requests = (history: CarbonHistoryItem[]) => history.filter((item) => "input" in item.message).map((item) => (item.message as { input: { text: string } }).input.text);

function adapterOn(connect: (input: unknown) => ObservableInput<BaseEvent>, scheduler?: SchedulerLike) {
  return new CarbonAgUiAdapter({ threadId: THREAD, coalesce: false, run: () => [], threads: connectThreads(connect), onError: (error) => { throw error; }, ...(scheduler && { scheduler }) });
}

describe("connectThreads", () => {
  it("reads a replay that pauses 600 ms between two recorded runs whole: both turns restored (no silence is taken as its end)", async () => {
    const clock = new VirtualTimeScheduler();
    const threads = connectThreads(() => paced(clock, firstRun(), 600, secondRun()));
    const loading = threads.load(THREAD, { scheduler: clock });
    clock.flush();
    const thread = (await loading) as ServerThreadOfRuns;
    expect(thread.runs).toHaveLength(2);
    expect(thread.running).toBeUndefined();
  });

  it("takes a run still open, once what came with it is read, as the live one: the thread before it, and the run from its start", async () => {
    const clock = new VirtualTimeScheduler();
    const live = new Subject<BaseEvent>();
    const threads = connectThreads(() => concat(of(...firstRun(), started("r2", [u2]), ev.textStart("a2"), ev.text("a2", "Mild")), live));
    const loading = threads.load(THREAD, { scheduler: clock });
    clock.flush();
    const thread = (await loading) as ServerThreadOfRuns;
    expect(thread.runs).toHaveLength(1);
    const seen: string[] = [];
    thread.running!.subscribe((event) => seen.push(event.type));
    live.next(ev.text("a2", ", 9 °C."));
    live.next(ev.textEnd("a2"));
    live.next(ev.runFinished({ runId: "r2" }));
    expect(seen).toEqual(["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"]);
  });

  it("restores the Carbon items a recorded answer showed: the replay goes through the stages once, as the live answer did", async () => {
    const adapter = adapterOn(() => of(...firstRun(), ...secondRun()));
    const history = await adapter.loadHistory(new CarbonRecorder());
    expect(requests(history)).toEqual(["Show me Oslo", "And the weather?"]);
    const [first, second] = responses(history);
    expect(first!.output.generic.map((item) => item.response_type)).toEqual(["text", "image"]);
    expect(first!.output.generic[1]).toMatchObject({ source: "https://example.com/oslo.png" });
    expect(second!.output.generic.map((item) => item.text)).toEqual(["Mild, 9 °C."]);
    expect(adapter.messages.map((message) => message.id)).toEqual(["u1", "a1", "u2", "a2"]);
  });

  it("rejoins a run still going after the restored turns: the person's message it answers shows, then its answer streams in", async () => {
    const live = new Subject<BaseEvent>();
    const adapter = adapterOn(() => concat(of(...firstRun(), started("r2", [u1, u2]), ev.textStart("a2"), ev.text("a2", "Mild")), live));
    const carbon = new CarbonRecorder();
    const history = await adapter.loadHistory(carbon);
    expect(requests(history)).toEqual(["Show me Oslo", "And the weather?"]);
    expect(responses(history)).toHaveLength(1);
    await waitUntil(() => carbon.chunks.length > 0);
    live.next(ev.text("a2", ", 9 °C."));
    live.next(ev.textEnd("a2"));
    live.next(ev.runFinished({ runId: "r2" }));
    live.complete();
    await adapter.whenIdle();
    expect(carbon.transcript()).toBe("Assistant: Mild, 9 °C.");
    expect(adapter.messages.map((message) => message.id)).toEqual(["u1", "a1", "u2", "a2"]);
  });

  it("has no thread for an empty replay, and keeps a run the stream cut short as it is (failed, as live)", async () => {
    expect(await connectThreads(() => of()).load(THREAD)).toBeUndefined();
    const cut = (await connectThreads(() => of(...firstRun(), started("r2", [u2]), ev.textStart("a2"))).load(THREAD)) as ServerThreadOfRuns;
    expect(cut.runs.map((run) => run.length)).toEqual([6, 2]);
    expect(cut.running).toBeUndefined();
  });

  it("decides whether an agent implements connect by its method alone, never by reading its source", () => {
    class Base {
      connect(): never {
        throw new Error("not implemented");
      }
      connectAgent(): void {}
    }
    class Implements extends Base {
      override connect(): never {
        return NEVER as never;
      }
    }
    class Inherits extends Base {}
    expect(implementsConnect(new Implements())).toBe(true);
    expect(implementsConnect(new Inherits())).toBe(false);
    expect(implementsConnect({ connect: () => NEVER })).toBe(true);
    expect(implementsConnect({})).toBe(false);
  });
});
