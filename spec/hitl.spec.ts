import { RunAgentInputSchema } from "@ag-ui/core/schemas";
import { isExpired, toResumeEntry } from "../src/hitl";

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
