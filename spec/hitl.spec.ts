import { RunAgentInputSchema } from "@ag-ui/core/schemas";
import { approvalIdOf, clientToolInterrupt, isAnsweredByChat, isExpired, pendingApprovalOf, toolServerApprovalInterrupt, toResumeEntry } from "../src/hitl";

describe("HITL wire mapping", () => {
  it("maps approve, edit and reject to resume entries", () => {
    expect(toResumeEntry("i1", { type: "approve" })).toEqual({ interruptId: "i1", status: "resolved", payload: { approved: true } });
    expect(toResumeEntry("i1", { type: "edit", args: { amount: 50 } })).toEqual({ interruptId: "i1", status: "resolved", payload: { approved: true, args: { amount: 50 } } });
    expect(toResumeEntry("i1", { type: "reject" })).toEqual({ interruptId: "i1", status: "cancelled" });
    // AG-UI 1.0's own schema rejects an explicit null payload: CopilotKit echoes the input in RUN_STARTED, which would then be dropped.
    const input = { threadId: "t", runId: "r", messages: [], tools: [], context: [], state: {}, forwardedProps: {} };
    for (const type of ["approve", "reject"] as const) expect(RunAgentInputSchema.safeParse({ ...input, resume: [toResumeEntry("i1", { type })] }).success).toBe(true);
  });

  it("tells an expired interrupt by its expiresAt", () => {
    const at = Date.parse("2026-11-30T12:00:00Z");
    expect(isExpired({ id: "i1", reason: "approval", expiresAt: "2026-11-30T12:00:00Z" }, at)).toBe(true);
    expect(isExpired({ id: "i1", reason: "approval", expiresAt: "2026-11-30T12:00:01Z" }, at)).toBe(false);
    expect(isExpired({ id: "i1", reason: "approval" }, at)).toBe(false);
  });
});

describe("interrupts the chat answers itself", () => {
  it("reads a tool server's pending approval from a tool result, and nothing else as one", () => {
    expect(pendingApprovalOf('{"pending_approval":"apr_1"}')).toBe("apr_1");
    for (const content of ['{"pending_approval":""}', '{"pending_approval":7}', '"pending_approval"', "pending_approval: apr_1", "{}", '{"status":"ok"}']) expect(pendingApprovalOf(content)).toBeUndefined();
  });

  it("tells the adapter's own interrupts from the agent's", () => {
    const approval = toolServerApprovalInterrupt({ toolCallId: "t1", name: "send_email" }, "apr_1");
    expect(approvalIdOf(approval)).toBe("apr_1");
    expect([approval, clientToolInterrupt("t2", { name: "pick", description: "Pick", parameters: {} })].map(isAnsweredByChat)).toEqual([true, true]);
    expect(isAnsweredByChat({ id: "i1", reason: "tool_server_approval", toolCallId: "t1" })).toBe(false);
    expect(isAnsweredByChat({ id: "i2", reason: "client_tool", toolCallId: "t1" })).toBe(false);
  });
});
