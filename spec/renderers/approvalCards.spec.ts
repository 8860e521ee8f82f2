import type { BaseEvent, RunAgentInput } from "@ag-ui/core";
import { JSDOM } from "jsdom";
import { BehaviorSubject, Subject } from "rxjs";
import { CarbonRecorder, ev, startToolServer, type ToolServer } from "carbon-agui-rx/testing";
import { ToolClient } from "carbon-agui-rx/tool-client";
import { CarbonAgUiAdapter } from "../../src/adapter";
import type { ApprovalRunStep } from "../../src/adapter/approvals/approvalRuns";
import { toolServerApprovalInterrupt, type InterruptDecision, type InterruptDecisionData, type PendingInterrupt } from "../../src/hitl";
import { createDecisionCard } from "../../src/renderers/decisionCards";
import { waitUntil } from "../support/runs";

/**
 * A tool server's approval's decision card, on an adapter that holds it
 * pending: Reject takes a reason, and the card follows the tool run the
 * adapter hands it (`approvalRun$`).
 */
function approvalCard(interruptReason = "tool_server_approval") {
  const document = new JSDOM("<!doctype html><div id=chat></div>").window.document;
  const interrupt = { ...toolServerApprovalInterrupt({ toolCallId: "call-1", name: "send_email" }, "apr_1"), reason: interruptReason };
  const pending = new BehaviorSubject<readonly PendingInterrupt[]>([{ interrupt }]);
  const steps = new Subject<ApprovalRunStep>();
  const answers: InterruptDecision[] = [];
  let settle: () => void = () => undefined;
  const adapter = {
    get pendingInterrupts() {
      return pending.value;
    },
    pendingInterrupts$: pending.asObservable(),
    respondToInterrupt: (decision: InterruptDecision) => {
      answers.push(decision);
      pending.next([]);
      return new Promise<void>((resolve) => (settle = resolve));
    },
    approvalRun$: () => steps.asObservable(),
  };
  const data: InterruptDecisionData = { kind: "interrupt", interruptId: interrupt.id, reason: interrupt.reason, message: interrupt.message!, toolCallId: "call-1", action: "send_email", args: { to: "ops@example.com" } };
  const card = createDecisionCard(document, data, { instance: new CarbonRecorder(), adapter });
  const element = card.element;
  const status = () => element.querySelector(".cagr-card-status");
  return { element, answers, steps, settle: () => settle(), status, reasonField: () => element.querySelector<HTMLInputElement>(".cagr-card-reason"), click: (name: string) => element.querySelector<HTMLButtonElement>(`.cagr-card-${name}`)!.click() };
}

describe("a tool server's approval's decision card", () => {
  it("offers a reason beside Reject, and sends it with the rejection", () => {
    const card = approvalCard();
    const field = card.reasonField()!;
    expect(field).not.toBeNull();
    expect(field.hidden).toBe(false);
    expect(field.getAttribute("aria-label")).toBe("Reason for rejecting (optional)");
    field.value = "  not today ";
    card.click("reject");
    expect(card.answers).toEqual([{ type: "reject", reason: "not today" }]);
  });

  it("rejects without a reason when none is typed", () => {
    const card = approvalCard();
    card.click("reject");
    expect(card.answers).toEqual([{ type: "reject" }]);
  });

  it("offers no reason on another kind of card", () => {
    expect(approvalCard("approval").reasonField()).toBeNull();
  });

  it("hides the reason while the arguments are edited, and once answered", () => {
    const card = approvalCard();
    card.click("edit");
    expect(card.reasonField()!.hidden).toBe(true);
    card.click("cancel");
    expect(card.reasonField()!.hidden).toBe(false);
    card.click("approve");
    expect(card.reasonField()!.hidden).toBe(true);
  });

  it("follows the tool run live: running, then the tool's result, nothing shown twice after a replay", async () => {
    const card = approvalCard();
    card.click("approve");
    expect(card.status()?.textContent).toBe("Sending your answer…");
    card.steps.next({ step: "started" });
    expect(card.status()?.textContent).toBe("Approved. Running…");
    expect(card.status()?.getAttribute("status")).toBe("active");
    card.steps.next({ step: "finished" });
    card.steps.next({ step: "result", result: { sent: true } });
    expect(card.status()?.textContent).toBe('Approved. The tool has run: {"sent":true}');
    expect(card.status()?.getAttribute("status")).toBe("finished");
    card.steps.next({ step: "started" });
    expect(card.status()?.textContent).toBe('Approved. The tool has run: {"sent":true}');
    card.settle();
    await waitUntil(() => card.status()?.getAttribute("status") === "finished");
    expect(card.status()?.textContent).toBe('Approved. The tool has run: {"sent":true}');
  });

  it("says the tool failed, as an error", () => {
    const card = approvalCard();
    card.click("approve");
    card.steps.next({ step: "started" });
    card.steps.next({ step: "failed", kind: "tool-timeout" });
    expect(card.status()?.textContent).toBe("Approved, but the tool failed (tool-timeout).");
    expect(card.status()?.getAttribute("status")).toBe("error");
  });
});

describe("a tool server's approval's card, on the adapter, against the reference tool server", () => {
  let server: ToolServer;
  beforeEach(async () => {
    server = await startToolServer();
  });
  afterEach(() => server.close());

  /** The agent calls send_email on the tool server as the run's owner, then answers from the call's result. */
  const agent = (inputs: RunAgentInput[]) =>
    async function* run(input: RunAgentInput): AsyncGenerator<BaseEvent> {
      inputs.push(input);
      yield ev.runStarted();
      if (inputs.length === 1) {
        const owner = new ToolClient({ baseUrl: server.url, token: "alice-token", retry: { maxRetries: 0 } });
        const call = await owner.invoke("send_email", { to: "ops@example.com" }, { runId: input.runId, threadId: input.threadId });
        yield* ev.toolCall("call-1", "send_email", { to: "ops@example.com" }, "a1");
        yield ev.toolResult("call-1", JSON.stringify(call.status === "pending_approval" ? { pending_approval: call.approval_id } : call.result), "r1");
      } else yield* ev.message("a2", "Sent.");
      yield ev.runFinished();
    };

  it("approved in the card: the card shows the tool's result once it has run", async () => {
    const document = new JSDOM("<!doctype html><div id=chat></div>").window.document;
    const inputs: RunAgentInput[] = [];
    const adapter = new CarbonAgUiAdapter({ coalesce: false, run: agent(inputs), toolClient: new ToolClient({ baseUrl: server.url, token: "alice-token", retry: { maxRetries: 2, baseDelayMs: 10 } }) });
    const carbon = new CarbonRecorder();
    await adapter.sendMessage({ id: "u1", input: { text: "Send it" } }, { signal: new AbortController().signal }, carbon);
    const [pending] = adapter.pendingInterrupts;
    const data: InterruptDecisionData = { kind: "interrupt", interruptId: pending!.interrupt.id, reason: pending!.interrupt.reason, toolCallId: "call-1", action: "send_email", args: { to: "ops@example.com" } };
    const card = createDecisionCard(document, data, { instance: carbon, adapter });
    const status = () => card.element.querySelector(".cagr-card-status")?.textContent ?? "";
    card.element.querySelector<HTMLButtonElement>(".cagr-card-approve")!.click();
    await waitUntil(() => carbon.transcript().includes("Sent.") && status().startsWith("Approved. The tool has run:"), 5_000);
    expect(JSON.parse(status().replace("Approved. The tool has run: ", ""))).toMatchObject({ sent: true, to: "ops@example.com" });
    adapter.dispose();
  });
});
