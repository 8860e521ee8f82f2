import { EventType, type BaseEvent } from "@ag-ui/core";
import { filter, map, pipe } from "rxjs";
import type { CarbonChainOfThoughtStep } from "../../../src/carbon";
import type { PipelineElement } from "../../../src/instructions";
import { AWAITING_ANSWER, AWAITING_APPROVAL, AWAITING_DECISION, NO_CLIENT_TOOL, NO_TOOL_RESULT, toolCallSteps, type AgUiToolCall, type ToolCallStepsOptions } from "../../../src/operators/map/toolCallSteps";
import { chainOfThought } from "../../../src/operators/map/chainOfThought";
import { ev, instr } from "../../support/builders";
import { testScheduler } from "../../support/marbles";
import { itFollowsTheOperatorContract } from "../../support/operatorContract";

const elements = (values: Record<string, unknown>) => values as Record<string, PipelineElement>;
const chain = (...steps: CarbonChainOfThoughtStep[]): PipelineElement => ({ kind: "options", options: { chain_of_thought: steps } });
const start = (toolCallId: string, toolCallName: string, parentMessageId?: string) =>
  ({ type: EventType.TOOL_CALL_START, toolCallId, toolCallName, ...(parentMessageId && { parentMessageId }) }) as BaseEvent;
const result = (toolCallId: string, content: string, extra: object = {}) => ({ type: EventType.TOOL_CALL_RESULT, messageId: `r-${toolCallId}`, toolCallId, content, ...extra }) as BaseEvent;
const call = (id: string, name: string, args: string) => ({ id, type: "function" as const, function: { name, arguments: args } });

/** toolCallSteps() without its `run.toolCalls`, for the specs about the chain of thought and the history. */
const steps = (options?: ToolCallStepsOptions) => pipe(toolCallSteps(options), chainOfThought(), filter((element: PipelineElement) => !("kind" in element && element.kind === "run.toolCalls")));

describe("toolCallSteps", () => {
  it("shows a tool call as a live chain-of-thought step and records it in the history", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-S-a-b-E---R---|", elements({ S: start("t1", "search", "a1"), a: ev.toolArgs("t1", '{"q":'), b: ev.toolArgs("t1", '"rxjs"}'), E: ev.toolEnd("t1"), R: result("t1", "3 hits") }));
      const processing = { tool_name: "search", status: "processing" as const };
      const withArgs = { ...processing, request: { args: { q: "rxjs" } } };
      expectObservable(source.pipe(steps())).toBe("-(sH)--(eh)(ri)|", {
        s: chain(processing),
        H: { kind: "history.message", message: { id: "a1", role: "assistant", toolCalls: [call("t1", "search", "")] } },
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
      expectObservable(source.pipe(steps())).toBe("-(sH)(eh)(ri)|", {
        s: chain({ tool_name: "shell", status: "processing" }),
        H: { kind: "history.message", message: { id: "t1", role: "assistant", toolCalls: [call("t1", "shell", "")] } },
        e: chain(withArgs),
        h: { kind: "history.message", message: { id: "t1", role: "assistant", toolCalls: [call("t1", "shell", "ls -la")] } },
        r: chain({ ...withArgs, response: { content: "" }, status: "failure" }),
        i: { kind: "history.message", message: { id: "r-t1", role: "tool", toolCallId: "t1", content: "", error: "permission denied" } },
      });
    });
  });

  it.each([
    ["an error object", '{"error":"MCP request failed"}', "failure"],
    ["MCP's isError", '{"isError":true,"content":[{"type":"text","text":"boom"}]}', "failure"],
    ["an object whose error is empty", '{"error":""}', "success"],
    ["a result that mentions an error", "No error found", "success"],
    ["JSON that is no object", '["error"]', "success"],
  ])("fails the step of a result that is %s, keeping the result in the history as the agent sent it", (_what, content, status) => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S----E----R----|", elements({ S: start("t1", "show_clock", "a1"), E: ev.toolEnd("t1"), R: result("t1", content) }));
      const ended = { tool_name: "show_clock", status: "processing" as const, request: { args: {} } };
      expectObservable(source.pipe(steps())).toBe("-(sH)-(eh)-(ri)-|", {
        s: chain({ tool_name: "show_clock", status: "processing" }),
        H: { kind: "history.message", message: { id: "a1", role: "assistant", toolCalls: [call("t1", "show_clock", "")] } },
        e: chain(ended),
        h: { kind: "history.message", message: { id: "a1", role: "assistant", toolCalls: [call("t1", "show_clock", "")] } },
        r: chain({ ...ended, response: { content }, status: status as "failure" | "success" }),
        i: { kind: "history.message", message: { id: "r-t1", role: "tool", toolCallId: "t1", content } },
      });
    });
  });

  it("records each call of one assistant message under that message (the history merges them by id), steps in order", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S----E---T----F---|", elements({ S: start("t1", "search", "a1"), E: ev.toolEnd("t1"), T: start("t2", "fetch", "a1"), F: ev.toolEnd("t2") }));
      const search = { tool_name: "search", status: "processing" as const, request: { args: {} } };
      expectObservable(source.pipe(steps())).toBe("-(sH)-(eh)(tJ)-(fi)|", {
        s: chain({ tool_name: "search", status: "processing" }),
        H: { kind: "history.message", message: { id: "a1", role: "assistant", toolCalls: [call("t1", "search", "")] } },
        J: { kind: "history.message", message: { id: "a1", role: "assistant", toolCalls: [call("t2", "fetch", "")] } },
        e: chain(search),
        h: { kind: "history.message", message: { id: "a1", role: "assistant", toolCalls: [call("t1", "search", "")] } },
        t: chain(search, { tool_name: "fetch", status: "processing" }),
        f: chain(search, { tool_name: "fetch", status: "processing", request: { args: {} } }),
        i: { kind: "history.message", message: { id: "a1", role: "assistant", toolCalls: [call("t2", "fetch", "")] } },
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
      const source = cold("-S----E-----T----F-----|", elements({ S: start("t1", "search"), E: ev.toolEnd("t1"), T: start("t2", "draw", "a1"), F: ev.toolEnd("t2") }));
      const result$ = source.pipe(steps({ onToolCall, onInvalidItem: (item) => invalid.push(item) }), map((element) => ("kind" in element ? element.kind : element.type)));
      expectObservable(result$).toBe("-(oh)-(ohi)-(oh)-(oh)--|", { o: "options", h: "history.message", i: "item.complete" });
    });
    expect(seen).toEqual([{ toolCallId: "t1", name: "search", args: {} }, { toolCallId: "t2", name: "draw", args: {}, parentMessageId: "a1" }]);
    expect(invalid).toEqual([{ response_type: "image" }]);
  });

  it("marks steps still processing as failed when the run fails, is stopped or breaks off, writing no result; a successful run that lists no pending calls leaves them to the chat, which answers one it has no tool for", () => {
    const processing = chain({ tool_name: "search", status: "processing" });
    const failed = chain({ tool_name: "search", status: "failure", response: { content: NO_TOOL_RESULT } });
    testScheduler().run(({ cold, expectObservable }) => {
      const runError = ev.runError("boom") as PipelineElement;
      const started = { s: processing, H: instr.history({ id: "t1", role: "assistant", toolCalls: [call("t1", "search", "")] }) };
      const finished = ev.runFinished() as PipelineElement;
      expectObservable(cold("-S----e----|", elements({ S: start("t1", "search"), e: runError })).pipe(steps())).toBe("-(sH)-(fe)-|", { ...started, f: failed, e: runError });
      expectObservable(cold("-S----t----|", elements({ S: start("t1", "search"), t: instr.stopped() })).pipe(steps())).toBe("-(sH)-(ft)-|", { ...started, f: failed, t: instr.stopped() });
      expectObservable(cold("-S----#", elements({ S: start("t1", "search") })).pipe(steps())).toBe("-(sH)-(f#)", { ...started, f: failed });
      const n = instr.history({ id: "t1-no-result", role: "tool", toolCallId: "t1", content: NO_TOOL_RESULT, error: NO_TOOL_RESULT });
      expectObservable(cold("-S----F----|", elements({ S: start("t1", "search"), F: finished })).pipe(steps())).toBe("-(sH)-(fnF)|", { ...started, f: failed, n, F: finished });
    });
  });

  it("answers, as the chat, a call a successful run left without a result and without naming its pending calls (AG-UI's client derives it as the application's: a tool that threw, in CopilotKit and Mastra), so the next run carries none unanswered", () => {
    const made = call("t1", "get_stock_price", '{"symbol":"IBM"}');
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S----a-E----F----|", elements({ S: start("t1", "get_stock_price", "m1"), a: ev.toolArgs("t1", '{"symbol":"IBM"}'), E: ev.toolEnd("t1"), F: ev.runFinished() }));
      expectObservable(source.pipe(steps())).toBe("-(sH)---(eh)-(fnF)|", {
        s: chain({ tool_name: "get_stock_price", status: "processing" }),
        H: instr.history({ id: "m1", role: "assistant", toolCalls: [call("t1", "get_stock_price", "")] }),
        e: chain({ tool_name: "get_stock_price", status: "processing", request: { args: { symbol: "IBM" } } }),
        h: { kind: "history.message", message: { id: "m1", role: "assistant", toolCalls: [made] } },
        f: chain({ tool_name: "get_stock_price", status: "failure", request: { args: { symbol: "IBM" } }, response: { content: NO_TOOL_RESULT } }),
        n: { kind: "history.message", message: { id: "t1-no-result", role: "tool", toolCallId: "t1", content: NO_TOOL_RESULT, error: NO_TOOL_RESULT } },
        F: ev.runFinished() as PipelineElement,
      });
    });
  });

  it("keeps a call cut short in the history with its arguments so far", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S----a-#", elements({ S: start("t1", "search"), a: ev.toolArgs("t1", '{"q":') }));
      expectObservable(source.pipe(steps())).toBe("-(sH)---(Cf#)", {
        s: chain({ tool_name: "search", status: "processing" }),
        H: instr.history({ id: "t1", role: "assistant", toolCalls: [call("t1", "search", "")] }),
        C: instr.history({ id: "t1", role: "assistant", toolCalls: [call("t1", "search", '{"q":')] }),
        f: chain({ tool_name: "search", status: "failure", response: { content: NO_TOOL_RESULT } }),
      });
    });
  });

  it("shows a call the finished run hands over to the client (named pending, or of a client tool) as success, with no result in the history", () => {
    const finishes: [BaseEvent, { clientTools?: string[] }][] = [
      [ev.runFinished({ outcome: { type: "success", pendingToolCallIds: ["t1"] } }), {}],
      [ev.runFinished(), { clientTools: ["paint"] }],
    ];
    for (const [finished, options] of finishes) {
      testScheduler().run(({ cold, expectObservable }) => {
        const source = cold("-S----E----F----|", elements({ S: start("t1", "paint"), E: ev.toolEnd("t1"), F: finished }));
        const history = { kind: "history.message", message: { id: "t1", role: "assistant", toolCalls: [call("t1", "paint", "")] } };
        expectObservable(source.pipe(steps(options))).toBe("-(sh)-(eh)-(fF)-|", {
          s: chain({ tool_name: "paint", status: "processing" }),
          e: chain({ tool_name: "paint", status: "processing", request: { args: {} } }),
          h: history,
          f: chain({ tool_name: "paint", status: "success", request: { args: {} } }),
          F: finished as PipelineElement,
        });
      });
    }
  });

  it("reads a call that starts a subagent as a handoff to it, and the subagent's calls as its own", () => {
    const subagent = { type: EventType.SUBAGENT_STARTED, subagentRunId: "w1", name: "writer", parentToolCallId: "h1" } as BaseEvent;
    const draft = { ...start("t1", "draft"), subagentRunId: "w1" } as BaseEvent;
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S----W----D----|", elements({ S: start("h1", "transfer_to_writer"), W: subagent, D: draft }));
      expectObservable(source.pipe(steps())).toBe("-(sh)-(wW)-(dH)-|", {
        s: chain({ tool_name: "transfer_to_writer", status: "processing" }),
        h: { kind: "history.message", message: { id: "h1", role: "assistant", toolCalls: [call("h1", "transfer_to_writer", "")] } },
        w: chain({ tool_name: "transfer_to_writer", title: "Handing off to writer", status: "processing" }),
        W: subagent as PipelineElement,
        d: chain({ tool_name: "transfer_to_writer", title: "Handing off to writer", status: "processing" }, { tool_name: "draft", title: "writer: draft", status: "processing" }),
        H: { kind: "history.message", message: { id: "t1", role: "assistant", toolCalls: [call("t1", "draft", "")], subagentRunId: "w1" } },
      });
    });
  });

  it("shows a call an interrupt holds as waiting for a decision (no longer spinning: its message cannot change), with no result in the history", () => {
    const finished = ev.runFinished({ outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "approval", toolCallId: "t1" }] } });
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S----E----F----|", elements({ S: start("t1", "delete_files"), E: ev.toolEnd("t1"), F: finished }));
      expectObservable(source.pipe(steps())).toBe("-(sh)-(eh)-(fF)-|", {
        s: chain({ tool_name: "delete_files", status: "processing" }),
        e: chain({ tool_name: "delete_files", status: "processing", request: { args: {} } }),
        h: { kind: "history.message", message: { id: "t1", role: "assistant", toolCalls: [call("t1", "delete_files", "")] } },
        f: chain({ tool_name: "delete_files", status: "success", request: { args: {} }, description: AWAITING_DECISION }),
        F: finished as PipelineElement,
      });
    });
  });

  it("shows a call of a tool the person answers (askedTools) as waiting for that answer, with no result in the history", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S----E----F----|", elements({ S: start("t1", "pick_color"), E: ev.toolEnd("t1"), F: ev.runFinished() }));
      expectObservable(source.pipe(steps({ clientTools: ["pick_color"], askedTools: [{ name: "pick_color" }] }))).toBe("-(sh)-(eh)-(fF)-|", {
        s: chain({ tool_name: "pick_color", status: "processing" }),
        e: chain({ tool_name: "pick_color", status: "processing", request: { args: {} } }),
        h: { kind: "history.message", message: { id: "t1", role: "assistant", toolCalls: [call("t1", "pick_color", "")] } },
        f: chain({ tool_name: "pick_color", status: "success", request: { args: {} }, description: AWAITING_ANSWER }),
        F: ev.runFinished() as PipelineElement,
      });
    });
  });

  it("fails a call the outcome hands to the client when the clientTools given have no tool of its name, with that as its result", () => {
    const finished = ev.runFinished({ outcome: { type: "success", pendingToolCallIds: ["t1"] } });
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S----E----F----|", elements({ S: start("t1", "launch"), E: ev.toolEnd("t1"), F: finished }));
      expectObservable(source.pipe(steps({ clientTools: ["paint"] }))).toBe("-(sh)-(eh)-(fgF)|", {
        s: chain({ tool_name: "launch", status: "processing" }),
        e: chain({ tool_name: "launch", status: "processing", request: { args: {} } }),
        h: { kind: "history.message", message: { id: "t1", role: "assistant", toolCalls: [call("t1", "launch", "")] } },
        f: chain({ tool_name: "launch", status: "failure", request: { args: {} }, response: { content: NO_CLIENT_TOOL } }),
        g: { kind: "history.message", message: { id: "t1-no-result", role: "tool", toolCallId: "t1", content: NO_CLIENT_TOOL, error: NO_CLIENT_TOOL } },
        F: finished as PipelineElement,
      });
    });
  });

  it("hands nothing over on a run that ends on an interrupt or is cancelled: the step of a client tool's call the interrupts do not hold fails, and nobody answers it", () => {
    for (const finished of [ev.runFinished({ outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "approval" }] } }), ev.runFinished({ outcome: { type: "cancelled" } })]) {
      testScheduler().run(({ cold, expectObservable }) => {
        const source = cold("-S----E----F----|", elements({ S: start("t1", "pick_color"), E: ev.toolEnd("t1"), F: finished }));
        expectObservable(source.pipe(steps({ clientTools: ["pick_color"], askedTools: [{ name: "pick_color" }] }))).toBe("-(sh)-(eh)-(fF)-|", {
          s: chain({ tool_name: "pick_color", status: "processing" }),
          e: chain({ tool_name: "pick_color", status: "processing", request: { args: {} } }),
          h: { kind: "history.message", message: { id: "t1", role: "assistant", toolCalls: [call("t1", "pick_color", "")] } },
          f: chain({ tool_name: "pick_color", status: "failure", request: { args: {} }, response: { content: NO_TOOL_RESULT } }),
          F: finished as PipelineElement,
        });
      });
    }
  });

  it("with approvals, takes a result that says a tool server's reviewer decides as holding the call: its step waits for approval, run.toolCalls names the approval", () => {
    const pending = result("t1", '{"pending_approval":"apr_1"}');
    const seen: unknown[] = [];
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S----E----R----F----|", elements({ S: start("t1", "send_email"), E: ev.toolEnd("t1"), R: pending, F: ev.runFinished() }));
      const stepped = source.pipe(toolCallSteps({ approvals: true }), chainOfThought(), filter((element: PipelineElement) => !("kind" in element && element.kind === "run.toolCalls" && seen.push(element.calls))));
      expectObservable(stepped).toBe("-(sh)-(eh)-(wr)-F----|", {
        s: chain({ tool_name: "send_email", status: "processing" }),
        e: chain({ tool_name: "send_email", status: "processing", request: { args: {} } }),
        h: { kind: "history.message", message: { id: "t1", role: "assistant", toolCalls: [call("t1", "send_email", "")] } },
        w: chain({ tool_name: "send_email", status: "success", request: { args: {} }, description: AWAITING_APPROVAL }),
        r: { kind: "history.message", message: { id: "r-t1", role: "tool", toolCallId: "t1", content: '{"pending_approval":"apr_1"}' } },
        F: ev.runFinished() as PipelineElement,
      });
    });
    expect(seen).toEqual([[{ toolCallId: "t1", name: "send_email", arguments: "", status: "held", approvalId: "apr_1" }]]);
  });

  it("goes on with a call that ended when a START reopens it, calling onToolCall once", () => {
    const seen: AgUiToolCall[] = [];
    const argumentsOf = (element: PipelineElement) =>
      "kind" in element && element.kind === "history.message" ? (element.message as { toolCalls: { function: { arguments: string } }[] }).toolCalls[0]!.function.arguments : "other";
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S----a-E-S-b-E-----|", elements({ S: start("t1", "search"), a: ev.toolArgs("t1", '{"q":'), E: ev.toolEnd("t1"), b: ev.toolArgs("t1", '"x"}') }));
      expectObservable(source.pipe(steps({ onToolCall: (toolCall) => void seen.push(toolCall) }), map(argumentsOf))).toBe("-(oH)---(oh)--(oi)--|", {
        o: "other",
        H: "",
        h: '{"q":',
        i: '{"q":"x"}',
      });
    });
    expect(seen).toEqual([{ toolCallId: "t1", name: "search", args: '{"q":' }]);
  });

  it("records a result for a call it never saw in the history only", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold("-R-|", elements({ R: result("old", "late") })).pipe(steps())).toBe("-i-|", {
        i: { kind: "history.message", message: { id: "r-old", role: "tool", toolCallId: "old", content: "late" } },
      });
    });
  });

  it("errors when onToolCall throws, and unsubscribes the source", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-S----E-|", elements({ S: start("t1", "search"), E: ev.toolEnd("t1") }));
      const onToolCall = () => {
        throw new Error("host bug");
      };
      expectObservable(source.pipe(steps({ onToolCall }))).toBe("-(sH)-(eh#)", {
        s: chain({ tool_name: "search", status: "processing" }),
        H: { kind: "history.message", message: { id: "t1", role: "assistant", toolCalls: [call("t1", "search", "")] } },
        e: chain({ tool_name: "search", status: "processing", request: { args: {} } }),
        h: { kind: "history.message", message: { id: "t1", role: "assistant", toolCalls: [call("t1", "search", "")] } },
      }, new Error("host bug"));
      expectSubscriptions(source.subscriptions).toBe("^-----!");
    });
  });

  it("tells, just before each RUN_FINISHED, what became of every call of the run: answered, held by an interrupt or failed", () => {
    const start = (toolCallId: string, toolCallName: string) => ({ type: EventType.TOOL_CALL_START, toolCallId, toolCallName, parentMessageId: "m1" }) as BaseEvent as PipelineElement;
    const end = (toolCallId: string) => ({ type: EventType.TOOL_CALL_END, toolCallId }) as BaseEvent as PipelineElement;
    const result = { type: EventType.TOOL_CALL_RESULT, messageId: "r1", toolCallId: "t1", content: "sunny" } as BaseEvent as PipelineElement;
    const seen: unknown[] = [];
    testScheduler().run(({ cold }) => {
      const events: PipelineElement[] = [start("t1", "weather"), end("t1"), result, start("t2", "paint"), end("t2"), start("t3", "search"), end("t3"), start("t4", "approve"), end("t4")];
      const finished = ev.runFinished({ outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "approval", toolCallId: "t4" }] } }) as PipelineElement;
      cold("-(abcdefghi)-z-|", { ...Object.fromEntries(events.map((event, at) => ["abcdefghi"[at]!, event])), z: finished })
        .pipe(toolCallSteps({ clientTools: ["paint"] }), chainOfThought())
        .subscribe((element) => "kind" in element && element.kind === "run.toolCalls" && seen.push(element.calls.map((call) => [call.toolCallId, call.status])));
    });
    // A run that ends on an interrupt hands nothing over: the client tool's call t2 fails too.
    expect(seen).toEqual([[["t1", "answered"], ["t2", "failed"], ["t3", "failed"], ["t4", "held"]]]);
  });

  it("takes the outcome's list as the calls the chat answers: a client tool's call it does not name is the agent's, its step fails and nothing hands it over", () => {
    const seen: unknown[] = [];
    testScheduler().run(({ cold }) => {
      const finished = ev.runFinished({ outcome: { type: "success", pendingToolCallIds: ["a1"] } }) as PipelineElement;
      cold("-(abcd)-z-|", elements({ a: start("a1", "paint"), b: ev.toolEnd("a1"), c: start("b1", "locate"), d: ev.toolEnd("b1"), z: finished }))
        .pipe(toolCallSteps({ clientTools: ["paint", "locate"] }), chainOfThought())
        .subscribe((element) => {
          if ("kind" in element && element.kind === "run.toolCalls") seen.push(element.calls.map((made) => [made.toolCallId, made.status]));
          if ("kind" in element && element.kind === "options") seen.push(element.options.chain_of_thought!.map((step) => step.status));
          if ("kind" in element && element.kind === "history.message" && element.message.role === "tool") seen.push(element.message);
        });
    });
    expect(seen.slice(-2)).toEqual([
      ["success", "failure"],
      [
        ["a1", "handedOver"],
        ["b1", "failed"],
      ],
    ]);
  });

  it("answers a call the run streamed with the result its MESSAGES_SNAPSHOT holds (a supervisor's transfer_to_writer, whose result LangGraph does not stream), and fails nothing at RUN_FINISHED", () => {
    const snapshot = {
      type: EventType.MESSAGES_SNAPSHOT,
      messages: [
        { id: "s1", role: "assistant", toolCalls: [call("h1", "transfer_to_writer", "{}")] },
        { id: "r1", role: "tool", toolCallId: "h1", content: "Successfully transferred to writer" },
      ],
    } as BaseEvent;
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S----E----m----F----|", elements({ S: start("h1", "transfer_to_writer", "s1"), E: ev.toolEnd("h1"), m: snapshot, F: ev.runFinished() }));
      expectObservable(source.pipe(steps())).toBe("-(sH)-(eh)-(om)-F----|", {
        s: chain({ tool_name: "transfer_to_writer", status: "processing" }),
        H: instr.history({ id: "s1", role: "assistant", toolCalls: [call("h1", "transfer_to_writer", "")] }),
        e: chain({ tool_name: "transfer_to_writer", status: "processing", request: { args: {} } }),
        h: instr.history({ id: "s1", role: "assistant", toolCalls: [call("h1", "transfer_to_writer", "")] }),
        o: chain({ tool_name: "transfer_to_writer", status: "success", request: { args: {} }, response: { content: "Successfully transferred to writer" } }),
        m: snapshot as PipelineElement,
        F: ev.runFinished() as PipelineElement,
      });
    });
  });

  it("shows and keeps nothing of a call of answeredCalls a later run announces again (@ag-ui/langgraph re-announces the last turn's handoff), and goes on with the run's own calls", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-(SaER)-T----F----|", elements({ S: start("h1", "transfer_to_researcher", "s1"), a: ev.toolArgs("h1", "{}"), E: ev.toolEnd("h1"), R: result("h1", "Successfully transferred"), T: start("t2", "search", "s2"), F: ev.runFinished({ outcome: { type: "success", pendingToolCallIds: ["t2"] } }) }));
      expectObservable(source.pipe(steps({ answeredCalls: new Map([["h1", { name: "transfer_to_researcher", arguments: "{ }" }]]) }))).toBe("--------(sH)-(fF)-|", {
        s: chain({ tool_name: "search", status: "processing" }),
        H: instr.history({ id: "s2", role: "assistant", toolCalls: [call("t2", "search", "")] }),
        f: chain({ tool_name: "search", status: "success" }),
        F: ev.runFinished({ outcome: { type: "success", pendingToolCallIds: ["t2"] } }) as PipelineElement,
      });
    });
  });

  it("shows a call under the id of one answered before as new once its END shows other arguments (an agent that reuses ids), from its START", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S-a-E------R---|", elements({ S: start("c1", "search", "m2"), a: ev.toolArgs("c1", '{"q":"b"}'), E: ev.toolEnd("c1"), R: result("c1", "found") }));
      expectObservable(source.pipe(steps({ answeredCalls: new Map([["c1", { name: "search", arguments: '{"q":"a"}' }]]) }))).toBe("-----(sHeh)-(oR)|", {
        s: chain({ tool_name: "search", status: "processing" }),
        H: instr.history({ id: "m2", role: "assistant", toolCalls: [call("c1", "search", "")] }),
        e: chain({ tool_name: "search", status: "processing", request: { args: { q: "b" } } }),
        h: instr.history({ id: "m2", role: "assistant", toolCalls: [call("c1", "search", '{"q":"b"}')] }),
        o: chain({ tool_name: "search", status: "success", request: { args: { q: "b" } }, response: { content: "found" } }),
        R: instr.history({ id: "r-c1", role: "tool", toolCallId: "c1", content: "found" }),
      });
    });
  });

  it("takes the calls of the run's messages from a MESSAGES_SNAPSHOT where the events got them wrong: a call streamed into another (@ag-ui/langgraph), a call never streamed", () => {
    const seen: AgUiToolCall[] = [];
    const snapshot = {
      type: EventType.MESSAGES_SNAPSHOT,
      messages: [
        { id: "u1", role: "user", content: "Tidy up" },
        { id: "old", role: "assistant", toolCalls: [call("t0", "search", '{"q":"x"}')] },
        { id: "a1", role: "assistant", toolCalls: [call("t1", "delete_files", '{"pattern":"*.tmp"}'), call("t2", "send_email", '{"to":"team@example.com"}')] },
      ],
    } as BaseEvent;
    const finished = ev.runFinished({ outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "approval", toolCallId: "t1" }, { id: "i2", reason: "approval", toolCallId: "t2" }] } });
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S----a-b-E----M----N-F----|", elements({ S: start("t1", "delete_files", "a1"), a: ev.toolArgs("t1", '{"pattern":"*.tmp"}'), b: ev.toolArgs("t1", '{"to":"team@example.com"}'), E: ev.toolEnd("t1"), M: snapshot, N: snapshot, F: finished }));
      const deletion = { tool_name: "delete_files", status: "processing" as const, request: { args: { pattern: "*.tmp" } } };
      const email = { tool_name: "send_email", status: "processing" as const, request: { args: { to: "team@example.com" } } };
      const asStreamed = { tool_name: "delete_files", status: "processing" as const, request: { args: '{"pattern":"*.tmp"}{"to":"team@example.com"}' } };
      expectObservable(source.pipe(steps({ onToolCall: (toolCall) => void seen.push(toolCall) }))).toBe("-(sH)-----(eh)-(cM)-N-(fF)-|", {
        s: chain({ tool_name: "delete_files", status: "processing" }),
        H: { kind: "history.message", message: { id: "a1", role: "assistant", toolCalls: [call("t1", "delete_files", "")] } },
        e: chain(asStreamed),
        h: { kind: "history.message", message: { id: "a1", role: "assistant", toolCalls: [call("t1", "delete_files", '{"pattern":"*.tmp"}{"to":"team@example.com"}')] } },
        c: chain(deletion, email),
        M: snapshot as PipelineElement,
        N: snapshot as PipelineElement,
        f: chain({ ...deletion, status: "success", description: AWAITING_DECISION }, { ...email, status: "success", description: AWAITING_DECISION }),
        F: finished as PipelineElement,
      });
    });
    expect(seen.map((toolCall) => [toolCall.toolCallId, toolCall.args])).toEqual([
      ["t1", '{"pattern":"*.tmp"}{"to":"team@example.com"}'],
      ["t2", { to: "team@example.com" }],
    ]);
  });

  it("takes a call found only in a MESSAGES_SNAPSHOT as answered when the snapshot holds its result, and fails none of it at RUN_FINISHED", () => {
    const snapshot = {
      type: EventType.MESSAGES_SNAPSHOT,
      messages: [
        { id: "a1", role: "assistant", toolCalls: [call("t1", "weather", '{"city":"Oslo"}'), call("t2", "weather", '{"city":"Paris"}')] },
        { id: "r1", role: "tool", toolCallId: "t1", content: "4 °C" },
        { id: "r2", role: "tool", toolCallId: "t2", content: "21 °C" },
      ],
    } as BaseEvent;
    const seen: unknown[] = [];
    testScheduler().run(({ cold }) => {
      cold("-S-a-E-R-M-F-|", elements({ S: start("t1", "weather", "a1"), a: ev.toolArgs("t1", '{"city":"Oslo"}'), E: ev.toolEnd("t1"), R: result("t1", "4 °C"), M: snapshot, F: ev.runFinished() }))
        .pipe(toolCallSteps(), chainOfThought())
        .subscribe((element) => seen.push(element));
    });
    const chains = seen.flatMap((element) => ("kind" in (element as object) && (element as { kind: string }).kind === "options" ? [(element as { options: { chain_of_thought: CarbonChainOfThoughtStep[] } }).options.chain_of_thought] : []));
    expect(chains.at(-1)?.map((step) => [step.tool_name, step.request?.args, step.response?.content, step.status])).toEqual([
      ["weather", { city: "Oslo" }, "4 °C", "success"],
      ["weather", { city: "Paris" }, "21 °C", "success"],
    ]);
    const runCalls = seen.find((element) => (element as { kind?: string }).kind === "run.toolCalls") as { calls: { toolCallId: string; status: string }[] };
    expect(runCalls.calls.map((entry) => [entry.toolCallId, entry.status])).toEqual([["t1", "answered"], ["t2", "answered"]]);
    expect(seen.some((element) => JSON.stringify(element).includes(NO_TOOL_RESULT))).toBe(false);
  });

  it("changes nothing when a MESSAGES_SNAPSHOT has the run's calls as they were streamed, however their JSON is spaced", () => {
    const snapshot = { type: EventType.MESSAGES_SNAPSHOT, messages: [{ id: "a1", role: "assistant", toolCalls: [call("t1", "search", '{ "q": "rxjs" }')] }] } as BaseEvent;
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S-a-E-M-|", elements({ S: start("t1", "search", "a1"), a: ev.toolArgs("t1", '{"q":"rxjs"}'), E: ev.toolEnd("t1"), M: snapshot }));
      expectObservable(source.pipe(steps(), filter((element) => "kind" in element && element.kind === "options"), map(() => "o"))).toBe("-o---o---|");
    });
  });

  it("emits what its doc's marble shows", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("--S-----a---E-----R-----F-----|", elements({ S: start("t1", "search"), a: ev.toolArgs("t1", '{"q":"rxjs"}'), E: ev.toolEnd("t1"), R: result("t1", "3 hits"), F: ev.runFinished() }));
      const kinds = source.pipe(toolCallSteps(), map((element) => ("kind" in element ? element.kind : element.type)));
      expectObservable(kinds).toBe("--(oh)------(oh)--(oh)--(cF)--|", { o: "chain.steps", h: "history.message", c: "run.toolCalls", F: EventType.RUN_FINISHED });
    });
  });

  itFollowsTheOperatorContract(() => toolCallSteps(), ev.custom("x") as PipelineElement);
});
