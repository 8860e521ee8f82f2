import * as errors from "../../src/tool-client/errors";
import { errorFromProblem, ToolArgsInvalidError, ToolServerError } from "../../src/tool-client/errors";

const problem = (status: number, kind?: string) => ({ type: kind ? `urn:tool-server:problem:${kind}` : "about:blank", status, title: "t", ...(kind && { kind }) });

describe("errorFromProblem", () => {
  it.each<[number, string | undefined, keyof typeof errors, ...(keyof typeof errors)[]]>([
    [404, "tool-not-found", "ToolNotFoundError", "NotFoundError"],
    [404, "approval-not-found", "ApprovalNotFoundError", "NotFoundError"],
    [404, "run-not-found", "NotFoundError"],
    [404, undefined, "NotFoundError"],
    [422, "tool-args-invalid", "ToolArgsInvalidError", "UnprocessableContentError"],
    [422, "idempotency-key-reused", "UnprocessableContentError"],
    [400, "bad-request", "BadRequestError"],
    [400, "tool-usage", "ToolUsageError", "BadRequestError"],
    [401, "unauthorized", "UnauthorizedError"],
    [403, "forbidden", "ForbiddenError"],
    [403, "run-forbidden", "ForbiddenError"],
    [403, "approval-denied", "ApprovalDeniedError", "ForbiddenError"],
    [403, "guardrail-blocked", "GuardrailBlockedError", "ForbiddenError"],
    [409, "run-limit-exceeded", "RunLimitExceededError", "ConflictError"],
    [409, "approval-already-decided", "ApprovalAlreadyDecidedError", "ConflictError"],
    [409, "idempotency-key-in-flight", "ConflictError"],
    [429, "budget-exceeded", "BudgetExceededError", "TooManyRequestsError"],
    [429, undefined, "TooManyRequestsError"],
    [502, "tool-failed", "ToolFailedError", "ToolError"],
    [502, "tool-error", "ToolError"],
    [502, "model-unavailable", "ModelError", "ToolError"],
    [502, undefined, "ToolError"],
    [504, "tool-timeout", "ToolTimeoutError"],
    [500, "internal", "InternalServerError"],
    [503, "unavailable", "ServiceUnavailableError"],
    // A kind that belongs to another status does not change the status's class.
    [404, "tool-failed", "NotFoundError"],
    [418, undefined, "ToolServerError"],
  ])("%s %s → %s", (status, kind, expected, ...ancestors) => {
    const error = errorFromProblem(problem(status, kind), status, 1_000);
    expect(error.constructor).toBe(errors[expected]);
    expect(error.name).toBe(expected);
    for (const ancestor of ancestors) expect(error).toBeInstanceOf(errors[ancestor] as unknown as new () => unknown);
    expect(error).toBeInstanceOf(ToolServerError);
    expect(error).toMatchObject({ status, kind, retryAfterMs: 1_000, problem: problem(status, kind) });
  });

  it("gives ToolArgsInvalidError the problem's errors", () => {
    const error = errorFromProblem({ ...problem(422, "tool-args-invalid"), errors: [{ path: "/a", message: "must be number" }] }, 422);
    expect(error).toBeInstanceOf(ToolArgsInvalidError);
    expect((error as ToolArgsInvalidError).errors).toEqual([{ path: "/a", message: "must be number" }]);
  });

  it("serializes to JSON with its fields", () => {
    const error = errorFromProblem(problem(429, "budget-exceeded"), 429, 30_000);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: "BudgetExceededError",
      message: "t",
      status: 429,
      kind: "budget-exceeded",
      retryAfterMs: 30_000,
      problem: problem(429, "budget-exceeded"),
    });
  });
});
