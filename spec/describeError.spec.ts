import fc from "fast-check";
import { describeError } from "../src/describeError";
import { AgUiConnectionError, AgUiEmptyRunError, AgUiFrontendToolError, AgUiHttpError, AgUiNotEventStreamError, AgUiProtocolError, AgUiRunError, SseFrameTooLargeError } from "../src/errors";

describe("describeError", () => {
  it.each([
    ["the agent's RUN_ERROR message, as a sentence", new AgUiRunError("The model is overloaded", "overloaded"), "The model is overloaded."],
    ["a RUN_ERROR message that is an error's toString (Mastra's), without the class name", new AgUiRunError("Error: The model is overloaded"), "The model is overloaded."],
    ["an agent that answered 503", new AgUiHttpError(503, "Service Unavailable", "<html>upstream down</html>"), "The agent answered 503 Service Unavailable."],
    ["a 401 without a status text (HTTP/2)", new AgUiHttpError(401, "", ""), "The agent answered 401 Unauthorized."],
    ["HttpAgent's error, which carries a status", Object.assign(new Error("HTTP 429"), { status: 429 }), "The agent answered 429 Too Many Requests."],
    ["an agent that could not be reached", new AgUiConnectionError("Could not reach the agent at https://agent.example/run"), "The agent could not be reached."],
    ["a connection that broke", new AgUiConnectionError("The connection to https://agent.example/run broke mid-stream"), "The connection to the agent broke off."],
    ["a stream cut before the answer was complete", new AgUiProtocolError("The stream ended while text message 'm1' was still open"), "The agent's answer broke off before it was complete."],
    ["an event out of order", new AgUiProtocolError("TEXT_MESSAGE_CONTENT: no open text message 'x'", "TEXT_MESSAGE_CONTENT"), "The agent sent an answer this chat could not follow."],
    ["a page where the stream should be (an auth proxy's sign-in page)", new AgUiNotEventStreamError(200, "text/html; charset=utf-8", "<html>Sign in</html>"), "The agent's address answered with text/html instead of an event stream: a sign-in page or a proxy may be in the way."],
    ["a run of no events at all", new AgUiEmptyRunError(), "The agent ended the run without answering."],
    ["an oversized event", new SseFrameTooLargeError(1_000_000), "The agent sent a message too large to show."],
    ["our own frontend-tool limit", new AgUiFrontendToolError("The agent asked for frontend tools more than 5 times in one turn; stopped"), "The agent asked for frontend tools more than 5 times in one turn; stopped."],
    ["anything else, without its internals", new TypeError("Cannot read properties of undefined (reading 'x')"), "Something went wrong while talking to the agent."],
    ["a thrown string", "boom", "Something went wrong while talking to the agent."],
  ])("says %s", (_case, error, expected) => {
    expect(describeError(error)).toBe(expected);
  });

  it("never shows a stack, credentials in a URL or a bearer token from an agent's message", () => {
    const message = "Upstream https://svc:s3cret@models.internal/v1 refused Bearer sk-live-123 (token=abc)\n    at call (/srv/agent.js:10:5)\n    at run (/srv/agent.js:20:3)";
    const said = describeError(new AgUiRunError(message));
    expect(said).toBe("Upstream https://models.internal/v1 refused Bearer [hidden] (token=[hidden]).");
    for (const secret of ["s3cret", "sk-live-123", "abc", "/srv/agent.js"]) expect(said).not.toContain(secret);
  });

  it("cuts a long message to 300 characters", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 2_000 }), (text) => {
        expect(describeError(new AgUiRunError(text)).length).toBeLessThanOrEqual(301);
      }),
    );
  });
});
