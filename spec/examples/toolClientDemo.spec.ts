import { toolClientDemo } from "../../examples/tool-client-demo";

describe("npm run demo:tools", () => {
  it("walks through the tool client against the reference server and says what happened", async () => {
    const lines: string[] = [];
    await toolClientDemo((line) => lines.push(line));
    const transcript = lines.join("\n");
    expect(transcript).toContain("add(2, 3) = 5");
    expect(transcript).toMatch(/The reviewer approved it with a cc: .*"cc":"audit@example.com"/);
    expect(transcript).toContain('ToolArgsInvalidError: [{"path":"/a","message":"must be number"}]');
    expect(transcript).toContain('Same key again: {"sum":42}; add ran 2 times in all');
    expect(transcript).toMatch(/event \d+ approval\.decided/);
    expect(lines.at(-1)).toMatch(/event \d+ end \{"status":"done"\}/);
  });
});
