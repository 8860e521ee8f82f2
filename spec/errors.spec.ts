import { AgUiConnectionError, AgUiHttpError, AgUiProtocolError, AgUiRunError, CarbonAgUiError, SseFrameTooLargeError } from "../src/errors";

describe("errors", () => {
  it("are all CarbonAgUiErrors with their own names, and serialize their fields to JSON", () => {
    const cause = new TypeError("fetch failed");
    const errors = [
      new AgUiRunError("overloaded", "503"),
      new AgUiProtocolError("TEXT_MESSAGE_CONTENT: no open text message 'm1'", "TEXT_MESSAGE_CONTENT"),
      new AgUiHttpError(401, "Unauthorized", "bad token"),
      new AgUiConnectionError("Could not reach the agent", { cause }),
      new SseFrameTooLargeError(1024),
    ];
    expect(errors.every((error) => error instanceof CarbonAgUiError && error instanceof Error)).toBe(true);
    expect(errors.map((error) => JSON.parse(JSON.stringify(error)))).toEqual([
      { name: "AgUiRunError", message: "overloaded", code: "503" },
      { name: "AgUiProtocolError", message: "TEXT_MESSAGE_CONTENT: no open text message 'm1'", eventType: "TEXT_MESSAGE_CONTENT" },
      { name: "AgUiHttpError", message: "The agent endpoint answered 401 Unauthorized: bad token", status: 401, statusText: "Unauthorized", body: "bad token" },
      { name: "AgUiConnectionError", message: "Could not reach the agent" },
      { name: "SseFrameTooLargeError", message: "A server-sent event exceeded 1024 bytes without ending", limitBytes: 1024 },
    ]);
    expect((errors[3] as AgUiConnectionError).cause).toBe(cause);
  });
});
