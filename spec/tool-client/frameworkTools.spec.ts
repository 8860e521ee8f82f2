import { startToolServer, type ToolServer } from "carbon-agui-rx/testing";
import { ToolClient, type VercelToolSpec } from "carbon-agui-rx/tool-client";

// Shaped like the Vercel AI SDK's: `jsonSchema(schema)` wraps a JSON Schema, `tool(spec)` returns the spec as the tool.
const jsonSchema = (schema: Record<string, unknown>) => ({ jsonSchema: schema, validate: undefined as unknown });
type FakeSchema = ReturnType<typeof jsonSchema>;
const tool = (spec: VercelToolSpec<FakeSchema>) => ({ type: "function" as const, ...spec });

describe("tool-client framework tools, against the reference tool server", () => {
  let server: ToolServer;
  beforeEach(async () => {
    server = await startToolServer();
  });
  afterEach(() => server.close());
  const client = () => new ToolClient({ baseUrl: server.url, token: "alice-token" });

  it("toolDefinitions: each tool with its schema; execute invokes it in the run", async () => {
    const definitions = await client().toolDefinitions({ tags: ["math", "email"], runId: "r-defs" });
    expect(definitions.map((definition) => definition.name).sort()).toEqual(["add", "send_email"]);
    const add = definitions.find((definition) => definition.name === "add")!;
    expect(add).toMatchObject({ requiresApproval: false, inputSchema: { type: "object" } });
    await expect(add.execute({ a: 40, b: 2 })).resolves.toEqual({ sum: 42 });
    expect((await client().cost("r-defs")).calls).toBe(1);
  });

  it("execute returns { pending_approval } while a reviewer decides", async () => {
    const [sendEmail] = await client().toolDefinitions({ tags: ["email"], runId: "r-approval" });
    const outcome = (await sendEmail!.execute({ to: "ops@example.com" })) as { pending_approval: string };
    expect(outcome.pending_approval).toMatch(/^apr_/);
    await expect(client().getApproval(outcome.pending_approval)).resolves.toMatchObject({ status: "pending", run_id: "r-approval" });
  });

  it("asVercelTools: one tool per name, built with the SDK's tool() and jsonSchema(); abortSignal reaches the call", async () => {
    const tools = await client().asVercelTools(tool, jsonSchema, { runId: "r-vercel", tags: ["math", "util"] });
    expect(Object.keys(tools).sort()).toEqual(["add", "echo"]);
    expect(tools.add!.inputSchema.jsonSchema).toMatchObject({ type: "object", required: ["a", "b"] });
    expect(tools.add!.parameters).toBe(tools.add!.inputSchema);
    await expect(tools.add!.execute({ a: 1, b: 2 }, { abortSignal: new AbortController().signal })).resolves.toEqual({ sum: 3 });
    await expect(tools.echo!.execute({ text: "hi" }, { abortSignal: AbortSignal.abort("stop") })).rejects.toBe("stop");
  });

  it("asVercelTools: the SDK executing one toolCallId again gets the stored answer; the tool runs once", async () => {
    const tools = await client().asVercelTools(tool, jsonSchema, { runId: "r-vercel-again", tags: ["math"] });
    await expect(tools.add!.execute({ a: 1, b: 2 }, { toolCallId: "call_1" })).resolves.toEqual({ sum: 3 });
    await expect(tools.add!.execute({ a: 1, b: 2 }, { toolCallId: "call_1" })).resolves.toEqual({ sum: 3 });
    expect((await client().cost("r-vercel-again")).calls).toBe(1);
    await tools.add!.execute({ a: 1, b: 2 }, { toolCallId: "call_2" });
    expect((await client().cost("r-vercel-again")).calls).toBe(2);
  });
});
