import { EventType, type BaseEvent } from "@ag-ui/core";
import { branchOf, childrenOf, leafOf, type ThreadLogData } from "../../src/thread/log";
import { ThreadLog, type LogChange } from "../../src/thread/threadLog";
import { ev } from "../support/builders";

const TIME = "2026-12-01T10:00:00.000Z";
const asked = (id: string) => ({ type: "message" as const, message: { id, role: "user" as const, content: id } });

describe("ThreadLog", () => {
  it("appends each entry growing from the head, which moves to it, and tells each change of an entry, never an event", () => {
    const log = new ThreadLog("t");
    const changes: LogChange["kind"][] = [];
    log.changes$.subscribe((change) => changes.push(change.kind));
    log.act("q1", asked("u1"), TIME);
    const run = log.begin({ id: "r1", runId: "run-1", responseId: "resp-1", time: TIME });
    for (const event of [ev.runStarted("run-1"), ev.textStart("a1"), ev.text("a1", "Hel"), ev.text("a1", "lo"), ev.textEnd("a1")]) run.add(event);
    log.end("r1", "finished", { responded: true });
    expect(changes).toEqual(["appended", "appended", "ended"]);
    expect(log.data).toEqual<ThreadLogData>({
      threadId: "t",
      entries: [
        { kind: "act", id: "q1", time: TIME, act: asked("u1") },
        { kind: "run", id: "r1", parent: "q1", runId: "run-1", responseId: "resp-1", time: TIME, events: [ev.runStarted("run-1"), ev.textStart("a1"), ev.text("a1", "Hello"), ev.textEnd("a1")], ended: "finished", responded: true },
      ],
      head: "r1",
    });
  });

  it("gives a run still going with its events so far, and names it as its RUN_STARTED does", () => {
    const log = new ThreadLog("t");
    const run = log.begin({ id: "r1", runId: "ours", responseId: "resp-1", time: TIME });
    run.add(ev.runStarted("theirs"));
    run.add(ev.textStart("a1"));
    expect(log.data.entries).toEqual([expect.objectContaining({ kind: "run", runId: "theirs", ended: "open", events: [ev.runStarted("theirs"), ev.textStart("a1")] })]);
  });

  it("leaves the runs going open when the page goes away: nothing more is recorded of them, their end included", () => {
    const log = new ThreadLog("t");
    const run = log.begin({ id: "r1", runId: "run-1", responseId: "resp-1", time: TIME });
    run.add(ev.runStarted("run-1"));
    log.leave();
    run.add({ type: EventType.RUN_ERROR, message: "the unload broke the connection" } as BaseEvent);
    log.end("r1", "failed", { failure: { message: "network error" } });
    expect(log.data.entries).toEqual([expect.objectContaining({ ended: "open", events: [ev.runStarted("run-1")] })]);
  });

  it("grows a branch from any entry, and moves the head between branches", () => {
    const log = new ThreadLog("t");
    log.act("q1", asked("u1"), TIME);
    log.act("a1", asked("first answer"), TIME);
    log.act("a2", asked("second answer"), TIME, "q1");
    log.act("a2b", asked("after it"), TIME);
    const data = log.data;
    expect(childrenOf(data, "q1").map((entry) => entry.id)).toEqual(["a1", "a2"]);
    expect(branchOf(data).map((entry) => entry.id)).toEqual(["q1", "a2", "a2b"]);
    expect(leafOf(data, "a2")).toBe("a2b");
    log.moveHead("a1");
    expect(branchOf(log.data).map((entry) => entry.id)).toEqual(["q1", "a1"]);
    expect(branchOf(log.data, "a2b").map((entry) => entry.id)).toEqual(["q1", "a2", "a2b"]);
  });
});
