import { terminalDemo } from "../../examples/terminal-demo";

describe("npm run demo:terminal", () => {
  it("plays the scripted conversation to the end, the story stopped by the person, in seconds", async () => {
    const lines: string[] = [];
    await terminalDemo((line) => lines.push(line));
    const transcript = lines.join("\n");
    expect(transcript).toMatch(/Assistant: Once upon a time[^\n]*\n  \(Response stopped\)/);
    expect(transcript).not.toContain("Once upon a time, in a data centre far away, a very long answer began to stream and stream and stream \n  (This message was not completed");
    expect(transcript).toContain("The model is overloaded");
    expect(transcript).toContain("(reported to onError: AgUiRunError: The model is overloaded)");
    expect(transcript).toContain("responses still waiting for a final response: 0");
  }, 20_000);
});
