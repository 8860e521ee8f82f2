/**
 * `npm run demo:tools`: the tool client against the reference tool server on
 * 127.0.0.1 — list, invoke, an approval with edited arguments while the run's
 * events stream, a typed error, a connection reset after the tool ran and the
 * idempotent retry, the run's cost. No network beyond loopback.
 */
import { startToolServer } from "carbon-agui-rx/testing";
import { ToolArgsInvalidError, ToolClient, ToolTransportError } from "carbon-agui-rx/tool-client";

export async function toolClientDemo(print: (line: string) => void = console.log): Promise<void> {
  const server = await startToolServer({ keepAliveMs: 1_000 });
  const runId = `demo-${Date.now()}`;
  try {
    const client = new ToolClient({ baseUrl: server.url, token: "alice-token" });
    const reviewer = new ToolClient({ baseUrl: server.url, token: "reviewer-token" });
    print(`Reference tool server at ${server.url}`);

    const tools = await client.listTools({ shape: "openai" });
    print(`Tools: ${tools.map((tool) => `${tool.name}${tool.requires_approval ? " (needs approval)" : ""}`).join(", ")}`);

    // Follow the run's events while the calls below happen.
    const events = (async () => {
      for await (const event of client.events(runId)) print(`  event ${event.id} ${event.event} ${JSON.stringify(event.data)}`);
    })();

    const sum = await client.invoke<{ sum: number }>("add", { a: 2, b: 3 }, { runId });
    if (sum.status === "ok") print(`add(2, 3) = ${sum.result.sum}`);

    const email = await client.invoke("send_email", { to: "ops@example.com", subject: "Deploy" }, { runId });
    if (email.status === "pending_approval") {
      const request = await reviewer.getApproval(email.approval_id);
      print(`send_email waits for approval ${email.approval_id}: ${JSON.stringify(request.arguments)}`);
      const decided = await reviewer.decide(email.approval_id, { approved: true, editedArguments: { ...request.arguments, cc: "audit@example.com" }, reason: "checked" });
      print(`The reviewer approved it with a cc: ${JSON.stringify(decided)}`);
    }

    try {
      await client.invoke("add", { a: "two", b: 3 }, { runId });
    } catch (error) {
      if (error instanceof ToolArgsInvalidError) print(`add("two", 3) → ToolArgsInvalidError: ${JSON.stringify(error.errors)}`);
    }

    server.inject({ type: "reset-after-tool" }, { route: "invoke" });
    const key = `${runId}-retry`;
    try {
      await client.invoke("add", { a: 20, b: 22 }, { runId, idempotencyKey: key });
    } catch (error) {
      if (error instanceof ToolTransportError) print(`The connection broke after the tool ran (not retried: reachedServer=${error.reachedServer})`);
    }
    const again = await client.invoke<{ sum: number }>("add", { a: 20, b: 22 }, { runId, idempotencyKey: key });
    print(`Same key again: ${JSON.stringify(again.status === "ok" && again.result)}; add ran ${server.toolRuns("add")} times in all`);

    const cost = await client.cost(runId);
    print(`Cost of ${runId}: $${cost.total_usd} over ${cost.calls} calls, by tool ${JSON.stringify(cost.by_kind)}`);

    server.endRun(runId, { status: "done" });
    await events;
  } finally {
    await server.close();
  }
}

if (require.main === module) void toolClientDemo();
