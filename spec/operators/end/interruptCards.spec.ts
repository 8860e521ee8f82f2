import type { BaseEvent, Interrupt } from "@ag-ui/core";
import { map } from "rxjs";
import { Conversation } from "../../../src/conversation";
import type { PipelineElement } from "../../../src/instructions";
import { interruptCards } from "../../../src/operators/end/interruptCards";
import { ev } from "../../support/builders";
import { testScheduler } from "../../support/marbles";
import { recorded } from "../../support/recorded";
import { itFollowsTheOperatorContract } from "../../support/operatorContract";

const interrupted = (...interrupts: Interrupt[]) => ev.runFinished({ outcome: { type: "interrupt", interrupts } }) as PipelineElement;
const card = (user_defined: object): PipelineElement => ({ kind: "item.complete", itemId: `interrupt-${(user_defined as { interruptId: string }).interruptId}`, item: { response_type: "user_defined", user_defined } });

describe("interruptCards", () => {
  it("shows one decision card per interrupt, in order, with the tool call it concerns, then passes the run's end on", () => {
    const conversation = new Conversation({
      messages: [{ id: "a1", role: "assistant", toolCalls: [{ id: "t1", type: "function", function: { name: "transfer", arguments: '{"amount":500}' } }] }],
    });
    const first = { id: "i1", reason: "approval", message: "Transfer 500?", toolCallId: "t1", responseSchema: { type: "object" }, expiresAt: "2026-12-01T00:00:00Z" };
    const second = { id: "i2", reason: "confirm" };
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const finished = interrupted(first, second);
      const source = cold("-f----|", { f: finished });
      expectObservable(source.pipe(recorded(conversation, (current) => interruptCards({ history: current.messages })))).toBe("-(abf)|", {
        a: card({ kind: "interrupt", interruptId: "i1", reason: "approval", message: "Transfer 500?", toolCallId: "t1", action: "transfer", args: { amount: 500 }, responseSchema: { type: "object" }, expiresAt: "2026-12-01T00:00:00Z" }),
        b: card({ kind: "interrupt", interruptId: "i2", reason: "confirm" }),
        f: finished,
      });
      expectSubscriptions(source.subscriptions).toBe("^-----!");
    });
    expect(conversation.pendingInterrupts.map((entry) => entry.interrupt.id)).toEqual(["i1", "i2"]);
  });

  it("says which subagent asks, as its step is titled (its subagentRunId when the run did not start it)", () => {
    const started = { type: "SUBAGENT_STARTED", subagentRunId: "s1", name: "researcher" } as unknown as PipelineElement;
    testScheduler().run(({ cold, expectObservable }) => {
      const finished = interrupted({ id: "i1", reason: "input_required", message: "Which ocean?", subagentRunId: "s1" }, { id: "i2", reason: "input_required", message: "Go on?", subagentRunId: "s9" });
      expectObservable(cold("-s-f-----|", { s: started, f: finished }).pipe(interruptCards())).toBe("-s-(abpf)|", {
        s: started,
        a: card({ kind: "interrupt", interruptId: "i1", reason: "input_required", message: "Which ocean?", subagent: "researcher" }),
        b: card({ kind: "interrupt", interruptId: "i2", reason: "input_required", message: "Go on?", subagent: "s9" }),
        p: { kind: "interrupts.pending", interrupts: (finished as { outcome: { interrupts: Interrupt[] } }).outcome.interrupts },
        f: finished,
      });
    });
  });

  it("describes a call as the run's latest messages snapshot has it, over what the run streamed (@ag-ui/langgraph streams a message's second tool call into its first)", () => {
    const streamed: PipelineElement = { kind: "run.toolCalls", calls: [{ toolCallId: "t1", name: "delete_files", arguments: '{"pattern":"*.tmp"}{"to":"team@example.com"}', status: "handedOver" }] };
    const call = (id: string, name: string, args: string) => ({ id, type: "function" as const, function: { name, arguments: args } });
    const snapshot: PipelineElement = {
      kind: "history.snapshot",
      messages: [{ id: "a1", role: "assistant", toolCalls: [call("t1", "delete_files", '{"pattern":"*.tmp"}'), call("t2", "send_email", '{"to":"team@example.com"}')] }],
    };
    testScheduler().run(({ cold, expectObservable }) => {
      const finished = interrupted({ id: "i1", reason: "approval", message: "Delete?", toolCallId: "t1" }, { id: "i2", reason: "approval", message: "Email?", toolCallId: "t2" });
      expectObservable(cold("-c-h-f------|", { c: streamed, h: snapshot, f: finished }).pipe(interruptCards())).toBe("-c-h-(abpf)-|", {
        c: streamed,
        h: snapshot,
        a: card({ kind: "interrupt", interruptId: "i1", reason: "approval", message: "Delete?", toolCallId: "t1", action: "delete_files", args: { pattern: "*.tmp" } }),
        b: card({ kind: "interrupt", interruptId: "i2", reason: "approval", message: "Email?", toolCallId: "t2", action: "send_email", args: { to: "team@example.com" } }),
        p: { kind: "interrupts.pending", interrupts: (finished as { outcome: { interrupts: unknown[] } }).outcome.interrupts },
        f: finished,
      });
    });
  });

  it("shows no second card for an interrupt whose card still waits (LangGraph re-emits a pending interrupt on a run without its resume)", () => {
    const again = { id: "i1", reason: "approval", message: "Delete?" };
    const fresh = { id: "i2", reason: "approval", message: "Email?" };
    testScheduler().run(({ cold, expectObservable }) => {
      const finished = interrupted(again, fresh);
      expectObservable(cold("-f----|", { f: finished }).pipe(interruptCards({ waiting: ["i1"] }))).toBe("-(bpf)|", {
        b: card({ kind: "interrupt", interruptId: "i2", reason: "approval", message: "Email?" }),
        p: { kind: "interrupts.pending", interrupts: [again, fresh] },
        f: finished,
      });
    });
  });

  it("says what a card asks when the interrupt has no message (Mastra's suspend payload and tool, else the tool call from the history), and has the call Mastra suspended recorded", () => {
    const conversation = new Conversation({
      messages: [{ id: "a1", role: "assistant", toolCalls: [{ id: "t1", type: "function", function: { name: "delete_files", arguments: '{"pattern":"*.tmp"}' } }] }],
    });
    const mastra = {
      id: "run-1::t9",
      reason: "mastra:tool_suspend",
      toolCallId: "t9",
      metadata: { mastra: { type: "mastra_suspend", toolName: "send_email", suspendPayload: { question: "Send it to Ada?" }, args: { to: "ada@example.com" } } },
    };
    const plain = { id: "i2", reason: "tool_call", toolCallId: "t1" };
    testScheduler().run(({ cold, expectObservable }) => {
      const finished = interrupted(mastra, plain);
      expectObservable(cold("-f------|", { f: finished }).pipe(interruptCards({ history: conversation.messages }))).toBe("-(habpf)|", {
        // Mastra streams no events for the call it suspended: it joins the history from the metadata.
        h: { kind: "history.message", message: { id: "t9", role: "assistant", toolCalls: [{ id: "t9", type: "function", function: { name: "send_email", arguments: '{"to":"ada@example.com"}' } }] } },
        a: card({ kind: "interrupt", interruptId: "run-1::t9", reason: "mastra:tool_suspend", message: "Send it to Ada?", toolCallId: "t9", action: "send_email", args: { to: "ada@example.com" } }),
        b: card({ kind: "interrupt", interruptId: "i2", reason: "tool_call", message: "Allow delete_files?", toolCallId: "t1", action: "delete_files", args: { pattern: "*.tmp" } }),
        p: { kind: "interrupts.pending", interrupts: [mastra, plain] },
        f: finished,
      });
    });
  });

  it("finds the call an interrupt names among the run's own calls (run.toolCalls)", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const calls = { kind: "run.toolCalls", calls: [{ toolCallId: "t5", name: "refund", arguments: '{"order":7}', status: "handedOver" }] } as PipelineElement;
      const finished = interrupted({ id: "i5", reason: "approval", toolCallId: "t5" });
      expectObservable(cold("-c-f-----|", { c: calls, f: finished }).pipe(interruptCards())).toBe("-c-(apf)-|", {
        c: calls,
        a: card({ kind: "interrupt", interruptId: "i5", reason: "approval", message: "Allow refund?", toolCallId: "t5", action: "refund", args: { order: 7 } }),
        p: { kind: "interrupts.pending", interrupts: [{ id: "i5", reason: "approval", toolCallId: "t5" }] },
        f: finished,
      });
    });
  });

  it("asks the person about each call of a tool without a handler (askedTools) that a successful run hands over, as the adapter's own interrupt", () => {
    const pickColor = { name: "pick_color", description: "Ask for a colour", parameters: { type: "object", properties: { options: { type: "array" } } } };
    const interrupt = { id: "client-tool-t5", reason: "client_tool", toolCallId: "t5", message: "Ask for a colour", responseSchema: pickColor.parameters };
    testScheduler().run(({ cold, expectObservable }) => {
      const calls = {
        kind: "run.toolCalls",
        calls: [
          { toolCallId: "t5", name: "pick_color", arguments: '{"options":["red"]}', status: "handedOver" },
          { toolCallId: "t6", name: "paint", arguments: "{}", status: "handedOver" },
          { toolCallId: "t7", name: "pick_color", arguments: "{}", status: "answered" },
        ],
      } as PipelineElement;
      const finished = ev.runFinished() as PipelineElement;
      expectObservable(cold("-c-f-----|", { c: calls, f: finished }).pipe(interruptCards({ askedTools: [pickColor] }))).toBe("-c-(apf)-|", {
        c: calls,
        a: card({ kind: "interrupt", interruptId: "client-tool-t5", reason: "client_tool", message: "Ask for a colour", toolCallId: "t5", action: "pick_color", args: { options: ["red"] }, responseSchema: pickColor.parameters }),
        p: { kind: "interrupts.pending", interrupts: [interrupt] },
        f: finished,
      });
    });
  });

  it("with approvals, ends a run with a card for each call a tool server's approval holds, after the agent's own interrupts", () => {
    const schema = { type: "object", required: ["to"] };
    const approval = { id: "approval-apr_1", reason: "tool_server_approval", toolCallId: "t5", message: "Allow send_email?", responseSchema: schema, metadata: { approvalId: "apr_1", tool: "send_email" } };
    testScheduler().run(({ cold, expectObservable }) => {
      const calls = { kind: "run.toolCalls", calls: [{ toolCallId: "t5", name: "send_email", arguments: '{"to":"ops"}', status: "held", approvalId: "apr_1" }] } as PipelineElement;
      const finished = ev.runFinished() as PipelineElement;
      expectObservable(cold("-c-f-----|", { c: calls, f: finished }).pipe(interruptCards({ approvals: { inputSchemas: new Map([["send_email", schema]]) } }))).toBe("-c-(apf)-|", {
        c: calls,
        a: card({ kind: "interrupt", interruptId: "approval-apr_1", reason: "tool_server_approval", message: approval.message, toolCallId: "t5", action: "send_email", args: { to: "ops" }, responseSchema: schema }),
        p: { kind: "interrupts.pending", interrupts: [approval] },
        f: finished,
      });
    });
  });

  it("adds later interrupts after unanswered ones and ignores a repeated id", () => {
    const conversation = new Conversation();
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-a---b----|", { a: interrupted({ id: "i1", reason: "x" }), b: interrupted({ id: "i1", reason: "again" }, { id: "i2", reason: "y" }) });
      expectObservable(source.pipe(recorded(conversation, (current) => interruptCards({ history: current.messages })), map((element) => ("kind" in element ? "c" : "f")))).toBe("-(cf)(ccf)|");
    });
    expect(conversation.pendingInterrupts.map((entry) => [entry.interrupt.id, entry.interrupt.reason])).toEqual([["i1", "x"], ["i2", "y"]]);
  });

  it("leaves other run ends alone", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const values = { f: ev.runFinished() as PipelineElement, c: ev.runFinished({ outcome: { type: "cancelled" } }) as PipelineElement };
      expectObservable(cold("-f-c-|", values).pipe(recorded(new Conversation(), (current) => interruptCards({ history: current.messages })))).toBe("-f-c-|", values);
    });
  });

  it("errors when a downstream callback throws", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const result = cold("-f-|", { f: interrupted({ id: "i1", reason: "x" }) }).pipe(
        recorded(new Conversation(), (current) => interruptCards({ history: current.messages })),
        map(() => {
          throw new Error("bad");
        }),
      );
      expectObservable(result).toBe("-#", undefined, new Error("bad"));
    });
  });

  itFollowsTheOperatorContract(() => recorded(new Conversation(), (current) => interruptCards({ history: current.messages })), ev.custom("x") as BaseEvent as PipelineElement);
});

