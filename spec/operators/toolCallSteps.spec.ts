import { EventType, type BaseEvent } from "@ag-ui/core";
import { map } from "rxjs";
import type { CarbonChainOfThoughtStep } from "../../src/carbon";
import type { PipelineElement } from "../../src/instructions";
import { NO_TOOL_RESULT, toolCallSteps, type AgUiToolCall } from "../../src/operators/toolCallSteps";
import { ev, instr } from "../support/builders";
import { testScheduler } from "../support/marbles";
import { itFollowsTheOperatorContract } from "../support/operatorContract";

const elements = (values: Record<string, unknown>) => values as Record<string, PipelineElement>;
const chain = (...steps: CarbonChainOfThoughtStep[]): PipelineElement => ({ kind: "options", options: { chain_of_thought: steps } });
const start = (toolCallId: string, toolCallName: string, parentMessageId?: string) =>
  ({ type: EventType.TOOL_CALL_START, toolCallId, toolCallName, ...(parentMessageId && { parentMessageId }) }) as BaseEvent;
const result = (toolCallId: string, content: string, extra: object = {}) => ({ type: EventType.TOOL_CALL_RESULT, messageId: `r-${toolCallId}`, toolCallId, content, ...extra }) as BaseEvent;
const call = (id: string, name: string, args: string) => ({ id, type: "function" as const, function: { name, arguments: args } });

describe("toolCallSteps", () => {
  it("shows a tool call as a live chain-of-thought step and records it in the history", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-S-a-b-E---R---|", elements({ S: start("t1", "search", "a1"), a: ev.toolArgs("t1", '{"q":'), b: ev.toolArgs("t1", '"rxjs"}'), E: ev.toolEnd("t1"), R: result("t1", "3 hits") }));
      const processing = { tool_name: "search", status: "processing" as const };
      const withArgs = { ...processing, request: { args: { q: "rxjs" } } };
      expectObservable(source.pipe(toolCallSteps())).toBe("-s-----(eh)(ri)|", {
        s: chain(processing),
        e: chain(withArgs),
        h: { kind: "history.message", message: { id: "a1", role: "assistant", toolCalls: [call("t1", "search", '{"q":"rxjs"}')] } },
        r: chain({ ...withArgs, response: { content: "3 hits" }, status: "success" }),
        i: { kind: "history.message", message: { id: "r-t1", role: "tool", toolCallId: "t1", content: "3 hits" } },
      });
      expectSubscriptions(source.subscriptions).toBe("^--------------!");
    });
  });

  it("keeps raw arguments that are not JSON, and marks a result with an error as a failure", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S-a-E---R---|", elements({ S: start("t1", "shell"), a: ev.toolArgs("t1", "ls -la"), E: ev.toolEnd("t1"), R: result("t1", "", { error: "permission denied" }) }));
      const withArgs = { tool_name: "shell", status: "processing" as const, request: { args: "ls -la" } };
      expectObservable(source.pipe(toolCallSteps())).toBe("-s---(eh)(ri)|", {
        s: chain({ tool_name: "shell", status: "processing" }),
        e: chain(withArgs),
        h: { kind: "history.message", message: { id: "t1", role: "assistant", toolCalls: [call("t1", "shell", "ls -la")] } },
        r: chain({ ...withArgs, response: { content: "" }, status: "failure" }),
        i: { kind: "history.message", message: { id: "r-t1", role: "tool", toolCallId: "t1", content: "", error: "permission denied" } },
      });
    });
  });

  it("gathers the calls of one assistant message into its toolCalls, steps in order", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S-E---T-F---|", elements({ S: start("t1", "search", "a1"), E: ev.toolEnd("t1"), T: start("t2", "fetch", "a1"), F: ev.toolEnd("t2") }));
      const search = { tool_name: "search", status: "processing" as const, request: { args: {} } };
      expectObservable(source.pipe(toolCallSteps())).toBe("-s-(eh)t-(fi)|", {
        s: chain({ tool_name: "search", status: "processing" }),
        e: chain(search),
        h: { kind: "history.message", message: { id: "a1", role: "assistant", toolCalls: [call("t1", "search", "")] } },
        t: chain(search, { tool_name: "fetch", status: "processing" }),
        f: chain(search, { tool_name: "fetch", status: "processing", request: { args: {} } }),
        i: { kind: "history.message", message: { id: "a1", role: "assistant", toolCalls: [call("t1", "search", ""), call("t2", "fetch", "")] } },
      });
    });
  });

  it("shows the item onToolCall returns once the call is complete, and skips one Carbon cannot render", () => {
    const seen: AgUiToolCall[] = [];
    const invalid: unknown[] = [];
    const onToolCall = (toolCall: AgUiToolCall) => {
      seen.push(toolCall);
      return toolCall.name === "search" ? { response_type: "system", text: `⚙ ${toolCall.name}` } : { response_type: "image" };
    };
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S-E-----T-F-----|", elements({ S: start("t1", "search"), E: ev.toolEnd("t1"), T: start("t2", "draw", "a1"), F: ev.toolEnd("t2") }));
      const result$ = source.pipe(toolCallSteps({ onToolCall, onInvalidItem: (item) => invalid.push(item) }), map((element) => ("kind" in element ? element.kind : element.type)));
      expectObservable(result$).toBe("-o-(ohi)-o-(oh)--|", { o: "options", h: "history.message", i: "item.complete" });
    });
    expect(seen).toEqual([{ toolCallId: "t1", name: "search", args: {} }, { toolCallId: "t2", name: "draw", args: {}, parentMessageId: "a1" }]);
    expect(invalid).toEqual([{ response_type: "image" }]);
  });

  it("marks steps still processing as failed when the run fails, is stopped or breaks off", () => {
    const processing = chain({ tool_name: "search", status: "processing" });
    const failed = chain({ tool_name: "search", status: "failure", response: { content: NO_TOOL_RESULT } });
    testScheduler().run(({ cold, expectObservable }) => {
      const runError = ev.runError("boom") as PipelineElement;
      expectObservable(cold("-S-e---|", elements({ S: start("t1", "search"), e: runError })).pipe(toolCallSteps())).toBe("-s-(fe)|", { s: processing, f: failed, e: runError });
      expectObservable(cold("-S-t---|", elements({ S: start("t1", "search"), t: instr.stopped() })).pipe(toolCallSteps())).toBe("-s-(ft)|", { s: processing, f: failed, t: instr.stopped() });
      expectObservable(cold("-S-#", elements({ S: start("t1", "search") })).pipe(toolCallSteps())).toBe("-s-(f#)", { s: processing, f: failed });
    });
  });

  it("fails a call the finished run left without a result, and records that as its result so the next run carries none unanswered (a tool that threw, in CopilotKit and Mastra)", () => {
    const made = call("t1", "get_stock_price", '{"symbol":"IBM"}');
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S-a-E----F----|", elements({ S: start("t1", "get_stock_price", "m1"), a: ev.toolArgs("t1", '{"symbol":"IBM"}'), E: ev.toolEnd("t1"), F: ev.runFinished() }));
      expectObservable(source.pipe(toolCallSteps())).toBe("-s---(eh)-(fnF)|", {
        s: chain({ tool_name: "get_stock_price", status: "processing" }),
        e: chain({ tool_name: "get_stock_price", status: "processing", request: { args: { symbol: "IBM" } } }),
        h: { kind: "history.message", message: { id: "m1", role: "assistant", toolCalls: [made] } },
        f: chain({ tool_name: "get_stock_price", status: "failure", request: { args: { symbol: "IBM" } }, response: { content: NO_TOOL_RESULT } }),
        n: { kind: "history.message", message: { id: "t1-no-result", role: "tool", toolCallId: "t1", content: NO_TOOL_RESULT, error: NO_TOOL_RESULT } },
        F: ev.runFinished() as PipelineElement,
      });
    });
  });

  it("shows a call the finished run hands over (named pending, interrupted, or of a client tool) as success, with no result in the history", () => {
    const finishes: [BaseEvent, { clientTools?: string[] }][] = [
      [ev.runFinished({ outcome: { type: "success", pendingToolCallIds: ["t1"] } }), {}],
      [ev.runFinished({ outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "approval", toolCallId: "t1" }] } }), {}],
      [ev.runFinished(), { clientTools: ["paint"] }],
    ];
    for (const [finished, options] of finishes) {
      testScheduler().run(({ cold, expectObservable }) => {
        const source = cold("-S-E----F----|", elements({ S: start("t1", "paint"), E: ev.toolEnd("t1"), F: finished }));
        expectObservable(source.pipe(toolCallSteps(options))).toBe("-s-(eh)-(fF)-|", {
          s: chain({ tool_name: "paint", status: "processing" }),
          e: chain({ tool_name: "paint", status: "processing", request: { args: {} } }),
          h: { kind: "history.message", message: { id: "t1", role: "assistant", toolCalls: [call("t1", "paint", "")] } },
          f: chain({ tool_name: "paint", status: "success", request: { args: {} } }),
          F: finished as PipelineElement,
        });
      });
    }
  });

  it("records a result for a call it never saw in the history only", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold("-R-|", elements({ R: result("old", "late") })).pipe(toolCallSteps())).toBe("-i-|", {
        i: { kind: "history.message", message: { id: "r-old", role: "tool", toolCallId: "old", content: "late" } },
      });
    });
  });

  it("errors when onToolCall throws, and unsubscribes the source", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-S-E-|", elements({ S: start("t1", "search"), E: ev.toolEnd("t1") }));
      const onToolCall = () => {
        throw new Error("host bug");
      };
      expectObservable(source.pipe(toolCallSteps({ onToolCall }))).toBe("-s-(eh#)", {
        s: chain({ tool_name: "search", status: "processing" }),
        e: chain({ tool_name: "search", status: "processing", request: { args: {} } }),
        h: { kind: "history.message", message: { id: "t1", role: "assistant", toolCalls: [call("t1", "search", "")] } },
      }, new Error("host bug"));
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
  });

  itFollowsTheOperatorContract(() => toolCallSteps(), ev.custom("x") as PipelineElement);
});
