/**
 * `fromAgent` on an agent behind `@ag-ui/mcp-apps-middleware` (agent.use), with a real MCP server on loopback: the
 * middleware runs, as `runAgent()` runs it (the agent is offered the server's UI tool, the call is made there, its
 * result and the app's activity come before RUN_FINISHED), and the A2A middleware with a local A2A agent; `@ag-ui/client`'s
 * runAgent on the same agent is the oracle of the history, which the next run sends.
 */
import type { Message, RunAgentInput } from "@ag-ui/core";
import { fromAgent, type CarbonAgUiError } from "carbon-agui-rx";
import { createA2aAgent, startA2aWriter, type A2aAgentServer } from "../../examples/frameworks/a2a";
import { createMcpAppsAgent } from "../../examples/frameworks/mcpApps";
import { CLOCK_APP_HTML, CLOCK_APP_URI, startMcpAppServer, type McpAppServer } from "../../examples/frameworks/mcpAppServer";
import { Chat } from "./partners";

/** A history as who said what: each message's words, and the calls it makes by name. */
const said = (messages: readonly Message[]) =>
  messages
    .filter((message) => message.role !== "activity")
    .map((message) => `${message.role}: ${String(message.content ?? "")}${message.role === "assistant" && message.toolCalls?.length ? ` [calls ${message.toolCalls.map((call) => call.function.name).join(", ")}]` : ""}`);

let mcp: McpAppServer;
beforeAll(async () => {
  mcp = await startMcpAppServer();
});
afterAll(() => mcp?.close());

describe("an agent behind the MCP Apps middleware, through fromAgent", () => {
  it("runs the middleware: the tool offered, called on the MCP server, its result and its app's activity in the chat and the thread", async () => {
    const errors: CarbonAgUiError[] = [];
    const inputs: RunAgentInput[] = [];
    const run = fromAgent(createMcpAppsAgent(mcp.url));
    const chat = new Chat({ run: (input, options) => (inputs.push(structuredClone(input)), run(input, options)), coalesce: false, onError: (error) => errors.push(error) });
    expect(await chat.say("What time is it in Oslo?")).toBeUndefined();
    expect(chat.carbon.transcript()).toContain("show_clock (success)");
    const [, activity] = [...chat.adapter.activities][0]!;
    expect(activity).toMatchObject({ activityType: "mcp-apps", content: { resourceUri: CLOCK_APP_URI, serverId: "clock", toolInput: { city: "Oslo" } } });
    expect(errors).toEqual([]);

    // The oracle: @ag-ui/client's runAgent on the same agent keeps the same call and result.
    const oracle = createMcpAppsAgent(mcp.url);
    oracle.setMessages([{ id: "u1", role: "user", content: "What time is it in Oslo?" }]);
    const { newMessages } = await oracle.runAgent();
    const shape = (messages: readonly { role: string; content?: unknown; toolCalls?: { function: { name: string; arguments: string } }[] }[]) =>
      messages.filter((message) => message.role !== "user" && message.role !== "activity").map((message) => (message.role === "tool" ? `tool: ${String(message.content)}` : `call: ${message.toolCalls?.map((call) => `${call.function.name}(${call.function.arguments})`).join(", ")}`));
    expect(shape(chat.adapter.messages as never)).toEqual(shape(newMessages as never));
    expect(shape(newMessages as never)).toEqual(['call: show_clock({"city":"Oslo"})', "tool: It is 12:00 in Oslo"]);
    // The next run sends that history and the person's next words.
    const kept = said(chat.adapter.messages);
    expect(await chat.say("And in Lima?")).toBeUndefined();
    expect(said(inputs.at(-1)!.messages)).toEqual([...kept, "user: And in Lima?"]);
  }, 30_000);

  it("shows the app as an item naming its call, and sends the app's requests to the MCP server through the middleware's proxied runs", async () => {
    const chat = new Chat({ run: fromAgent(createMcpAppsAgent(mcp.url)), coalesce: false });
    await chat.say("What time is it in Oslo?");
    const [activityId, activity] = [...chat.adapter.activities][0]!;
    const items = chat.carbon.chunks.flatMap((chunk) => ("final_response" in chunk ? chunk.final_response.output.generic : []));
    expect(items).toContainEqual(expect.objectContaining({ response_type: "user_defined", user_defined: { kind: "mcp-app", activityId, toolCallId: expect.any(String), toolName: "show_clock" } }));
    const { serverId, serverHash } = activity!.content as { serverId: string; serverHash: string };
    const messages = chat.adapter.messages;
    await expect(chat.adapter.mcpRequest({ serverId, serverHash, method: "resources/read", params: { uri: CLOCK_APP_URI } }, activityId!)).resolves.toMatchObject({ contents: [{ uri: CLOCK_APP_URI, text: CLOCK_APP_HTML }] });
    await expect(chat.adapter.mcpRequest({ serverId, method: "tools/call", params: { name: "tick", arguments: {} } }, activityId!)).resolves.toMatchObject({ content: [{ type: "text", text: "12:00:01" }] });
    await expect(chat.adapter.mcpRequest({ serverId: "nowhere", method: "ping" }, activityId!)).rejects.toThrow("ping on MCP server 'nowhere' failed: Unknown server: nowhere");
    // Nothing of the proxied runs entered the conversation.
    expect(chat.adapter.messages).toEqual(messages);
  }, 30_000);
});

describe("the A2A middleware's agent, through fromAgent", () => {
  let writer: A2aAgentServer;
  beforeAll(async () => {
    writer = await startA2aWriter();
  });
  afterAll(() => writer?.close());

  it("runs on a clone that keeps its agent cards: the task sent to the A2A agent, its answer, the orchestrator's words", async () => {
    // The middleware's agent reads @ag-ui/client 1.0's resolved debug config (an object, so truthy) as "debug on".
    const debug = jest.spyOn(console, "debug").mockImplementation(() => undefined);
    const errors: CarbonAgUiError[] = [];
    const inputs: RunAgentInput[] = [];
    const run = fromAgent(createA2aAgent([writer.url]));
    // The input as the adapter sent it (the middleware adds its system prompt to the object it is given).
    const chat = new Chat({ run: (input, options) => (inputs.push(structuredClone(input)), run(input, options)), coalesce: false, onError: (error) => errors.push(error) });
    expect(await chat.say("A haiku about rain")).toBeUndefined();
    // The middleware streams two runs: the call and its A2A answer, then the orchestrator's words (a response of their own).
    await chat.adapter.whenIdle();
    expect(chat.carbon.transcript()).toContain("The writer sent: Draft: A haiku about rain");
    expect(chat.carbon.transcript()).toContain("send_message_to_a2a_agent (success)");
    expect(errors).toEqual([]);
    expect(debug.mock.calls.map(([words]) => words)).toContain("sending message to a2a agent");

    // The oracle: @ag-ui/client's runAgent on the same agent keeps the same call, the A2A agent's answer and the words.
    const oracle = createA2aAgent([writer.url]);
    oracle.setMessages([{ id: "u1", role: "user", content: "A haiku about rain" }]);
    await oracle.runAgent();
    expect(said(chat.adapter.messages)).toEqual(said(oracle.messages));
    // The scripted orchestrator names its words after the run, as it named the message of its call: one message holds both.
    expect(said(oracle.messages)).toEqual(["user: A haiku about rain", "assistant: The writer sent: Draft: A haiku about rain [calls send_message_to_a2a_agent]", "tool: Draft: A haiku about rain"]);
    // The next run sends that history, as it is, and the person's next words.
    expect(await chat.say("Thanks")).toBeUndefined();
    await chat.adapter.whenIdle();
    const sent = inputs.find((input) => input.messages.at(-1)?.content === "Thanks")!;
    expect(said(sent.messages)).toEqual([...said(oracle.messages), "user: Thanks"]);
  }, 30_000);
});
