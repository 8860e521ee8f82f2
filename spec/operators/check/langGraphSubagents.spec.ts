import { EventType, type BaseEvent } from "@ag-ui/core";
import { langGraphSubagents } from "../../../src/operators/check/langGraphSubagents";
import { ev } from "../../support/builders";
import { testScheduler } from "../../support/marbles";
import { itFollowsTheOperatorContract } from "../../support/operatorContract";

/** A RAW event of `@ag-ui/langgraph` from the namespace `ns` (a LangGraph event's metadata). */
const raw = (ns: string) => ({ type: EventType.RAW, event: { event: "on_chat_model_stream", metadata: { langgraph_checkpoint_ns: ns } } }) as BaseEvent;
/** A chain's RAW event: its end can come after a child began, so it says nothing of who speaks. */
const chain = (ns: string) => ({ type: EventType.RAW, event: { event: "on_chain_end", metadata: { langgraph_checkpoint_ns: ns } } }) as BaseEvent;
const started = (id: string, name: string, parentToolCallId?: string) => ({ type: EventType.SUBAGENT_STARTED, subagentRunId: id, name, ...(parentToolCallId && { parentToolCallId }) }) as BaseEvent;
const finished = (id: string, outcome?: object) => ({ type: EventType.SUBAGENT_FINISHED, subagentRunId: id, ...(outcome && { outcome }) }) as BaseEvent;
const by = (event: BaseEvent, subagentRunId: string) => ({ ...event, subagentRunId }) as BaseEvent;

const SUP = "supervisor:s1|agent:a";
const RES = "researcher:r1|agent:b";
const handoff = { type: EventType.TOOL_CALL_START, toolCallId: "h1", toolCallName: "transfer_to_researcher" } as BaseEvent;
const text = ev.textStart("m1");
/** A tool call of an AG-UI assistant message. */
const call = (id: string, name: string) => ({ id, type: "function", function: { name, arguments: "{}" } });

describe("langGraphSubagents", () => {
  it("makes each worker after the supervisor a subagent: started under its handoff, its events its own, finished when the supervisor speaks again", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-s----h----r----t----u----a----|", { s: raw(SUP), h: handoff, r: raw(RES), t: text, u: raw(SUP), a: ev.textStart("m2") });
      expectObservable(source.pipe(langGraphSubagents())).toBe("-s----h----(Sr)-t----(Fu)-a----|", { s: raw(SUP), h: handoff, r: raw(RES), S: started("researcher:h1", "researcher", "h1"), t: by(text, "researcher:h1"), F: finished("researcher:h1"), u: raw(SUP), a: ev.textStart("m2") });
      expectSubscriptions(source.subscriptions).toBe("^------------------------------!");
    });
  });

  it("reads models' and tools' events only, never a chain's (a parent's end after its child began), and a new invocation of the same worker is a subagent of its own", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const again = "researcher:r2|agent:c";
      const source = cold("-s----r----c----q------|", { s: raw(SUP), r: raw(RES), c: chain(SUP), q: raw(again) });
      expectObservable(source.pipe(langGraphSubagents())).toBe("-s----(Sr)-c----(FTq)--|", { s: raw(SUP), r: raw(RES), c: chain(SUP), S: started("researcher:r1", "researcher"), F: finished("researcher:r1"), q: raw(again), T: started("researcher:r2", "researcher") });
    });
  });

  it("attributes the turn's worker messages and its handoff back in a snapshot, ahead of their stream too, never the person's or the supervisor's", () => {
    const messages = [
      { id: "u0", role: "user", content: "Earlier" },
      { id: "old", role: "assistant", content: "An earlier turn's words" },
      { id: "u1", role: "user", content: "Why tides?" },
      { id: "a0", role: "assistant", content: "", toolCalls: [call("h1", "transfer_to_researcher")] },
      { id: "a0-tool", role: "tool", toolCallId: "h1", content: "Successfully transferred to researcher" },
      { id: "m1", role: "assistant", content: "Research notes" },
      { id: "back", role: "assistant", content: "Transferring back to supervisor", toolCalls: [call("b1", "transfer_back_to_supervisor")] },
      { id: "back-tool", role: "tool", toolCallId: "b1", content: "Successfully transferred back to supervisor" },
      { id: "m2", role: "assistant", content: "Final answer" },
    ];
    const snapshot = { type: EventType.MESSAGES_SNAPSHOT, messages } as BaseEvent;
    const worker = (message: object) => ({ ...message, subagentRunId: "researcher:h1" });
    const attributed = { ...snapshot, messages: [...messages.slice(0, 5), ...messages.slice(5, 8).map(worker), messages[8]] };
    testScheduler().run(({ cold, expectObservable }) => {
      // The snapshot comes ahead of the researcher's stream, as LangGraph's sometimes does.
      const source = cold("-s----h----n----r----t----|", { s: raw(SUP), h: handoff, n: snapshot, r: raw(RES), t: text });
      expectObservable(source.pipe(langGraphSubagents())).toBe("-s----h----n----(Sr)-t----|", { s: raw(SUP), h: handoff, n: attributed, r: raw(RES), S: started("researcher:h1", "researcher", "h1"), t: by(text, "researcher:h1") });
    });
  });

  it("ends a worker that asks on interrupts as waiting, and names it in the interrupts", () => {
    const end = ev.runFinished({ outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "approval" }] } });
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-s----r----f----|", { s: raw(SUP), r: raw(RES), f: end });
      const named = { ...end, outcome: { type: "interrupt", interrupts: [{ subagentRunId: "researcher:r1", id: "i1", reason: "approval" }] } };
      expectObservable(source.pipe(langGraphSubagents())).toBe("-s----(Sr)-(Ff)-|", { s: raw(SUP), r: raw(RES), S: started("researcher:r1", "researcher"), F: finished("researcher:r1", { type: "suspended", interruptIds: ["i1"] }), f: named });
    });
  });

  it("goes on in the worker a resume starts in: the state's turn holds the supervisor's handoff to it, not handed back (a swarm's agent, not the supervisor, hands on)", () => {
    // A resume begins where the worker asked (its tools), before the supervisor speaks: the state's LangChain messages name who spoke.
    const state = (handedOffBy: string) => ({
      type: EventType.STATE_SNAPSHOT,
      snapshot: {
        messages: [
          { id: "u1", type: "human", content: "Delete my temp files" },
          { id: "a0", type: "ai", name: handedOffBy, content: "", tool_calls: [{ id: "h1", name: "transfer_to_researcher", args: {} }] },
          { id: "a0-tool", type: "tool", name: "transfer_to_researcher", tool_call_id: "h1", content: "Successfully transferred to researcher" },
        ],
      },
    }) as BaseEvent;
    const tools = "researcher:r1|tools:t";
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-n----r----t----u----|", { n: state("supervisor"), r: raw(tools), t: text, u: raw(SUP) });
      expectObservable(source.pipe(langGraphSubagents())).toBe("-n----(Sr)-t----(Fu)-|", { n: state("supervisor"), r: raw(tools), S: started("researcher:h1", "researcher", "h1"), t: by(text, "researcher:h1"), F: finished("researcher:h1"), u: raw(SUP) });
      const swarm = { n: state("alice"), r: raw(tools), t: text };
      expectObservable(cold("-n-r-t-|", swarm).pipe(langGraphSubagents())).toBe("-n-r-t-|", swarm);
    });
  });

  it("goes on in the worker a resume starts in when the state was read after the worker handed back (the bridge reads it as the run goes), its snapshot's words the worker's", () => {
    const state = {
      type: EventType.STATE_SNAPSHOT,
      snapshot: {
        messages: [
          { id: "u1", type: "human", content: "Delete my temp files" },
          { id: "a0", type: "ai", name: "supervisor", content: "", tool_calls: [{ id: "h1", name: "transfer_to_researcher", args: {} }] },
          { id: "a0-tool", type: "tool", name: "transfer_to_researcher", tool_call_id: "h1", content: "Successfully transferred to researcher" },
          { id: "m1", type: "ai", name: "researcher", content: "Cleaned up" },
          { id: "back", type: "ai", name: "researcher", content: "Transferring back to supervisor", tool_calls: [{ id: "b1", name: "transfer_back_to_supervisor", args: {} }] },
          { id: "back-tool", type: "tool", name: "transfer_back_to_supervisor", tool_call_id: "b1", content: "Successfully transferred back to supervisor" },
        ],
      },
    } as BaseEvent;
    const messages = [
      { id: "u1", role: "user", content: "Delete my temp files" },
      { id: "a0", role: "assistant", content: "", toolCalls: [call("h1", "transfer_to_researcher")] },
      { id: "a0-tool", role: "tool", toolCallId: "h1", content: "Successfully transferred to researcher" },
      { id: "m1", role: "assistant", content: "Cleaned up" },
      { id: "back", role: "assistant", content: "Transferring back to supervisor", toolCalls: [call("b1", "transfer_back_to_supervisor")] },
      { id: "back-tool", role: "tool", toolCallId: "b1", content: "Successfully transferred back to supervisor" },
    ];
    const snapshot = { type: EventType.MESSAGES_SNAPSHOT, messages } as BaseEvent;
    const attributed = { ...snapshot, messages: [...messages.slice(0, 3), ...messages.slice(3).map((message) => ({ ...message, subagentRunId: "researcher:h1" }))] };
    const tools = "researcher:r1|tools:t";
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-n-m-r----t-u----|", { n: state, m: snapshot, r: raw(tools), t: text, u: raw(SUP) });
      expectObservable(source.pipe(langGraphSubagents())).toBe("-n-m-(Sr)-t-(Fu)-|", { n: state, m: attributed, r: raw(tools), S: started("researcher:h1", "researcher", "h1"), t: by(text, "researcher:h1"), F: finished("researcher:h1"), u: raw(SUP) });
    });
  });

  it("drops a worker's events when hidden, its invocation still started and finished", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-s----r----t----f----|", { s: raw(SUP), r: raw(RES), t: text, f: ev.runFinished() });
      expectObservable(source.pipe(langGraphSubagents({ visibility: "hidden" }))).toBe("-s----(Sr)------(Ff)-|", { s: raw(SUP), r: raw(RES), S: started("researcher:r1", "researcher"), F: finished("researcher:r1"), f: ev.runFinished() });
    });
  });

  it("passes a graph with no supervisor as it is (a swarm, a plain subgraph), and everything when inline", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const values = { r: raw(RES), t: text };
      expectObservable(cold("-r-t-|", values).pipe(langGraphSubagents())).toBe("-r-t-|", values);
      const supervised = { s: raw(SUP), r: raw(RES), t: text };
      expectObservable(cold("-s-r-t-|", supervised).pipe(langGraphSubagents({ visibility: "inline" }))).toBe("-s-r-t-|", supervised);
    });
  });

  itFollowsTheOperatorContract(() => langGraphSubagents(), ev.runStarted());
});
