// Bundled for Chromium by toolClient.e2e.ts: the tool client as a browser runs it (fetch, AbortSignal, TextDecoder, crypto.randomUUID).
import { lastValueFrom, toArray } from "rxjs";
import { ToolArgsInvalidError, ToolClient } from "../../src/tool-client";

async function toolClientInTheBrowser(baseUrl: string, runId: string) {
  const client = new ToolClient({ baseUrl, token: "alice-token" });
  const events = lastValueFrom(client.events$(runId).pipe(toArray()));
  const sum = await client.invoke<{ sum: number }>("add", { a: 2, b: 3 }, { runId });
  const email = await client.invoke("send_email", { to: "ops@example.com" }, { runId });
  const decided = email.status === "pending_approval" ? await client.decide(email.approval_id, { approved: true, editedArguments: { to: "ops@example.com", cc: "audit@example.com" } }) : email;
  const invalid = await client.invoke("add", { a: "two", b: 3 }).catch((error: unknown) => error);
  const aborted = await client.invoke("slow", { ms: 5_000 }, { signal: AbortSignal.timeout(50) }).catch((error: unknown) => (error as Error).name);
  (window as unknown as { endRun: (id: string) => Promise<void> }).endRun(runId);
  return {
    sum: sum.status === "ok" ? sum.result.sum : undefined,
    decided,
    invalid: invalid instanceof ToolArgsInvalidError ? invalid.errors : String(invalid),
    aborted,
    events: (await events).map((event) => event.event),
    cost: (await client.cost(runId)).calls,
  };
}

(window as unknown as { toolClientInTheBrowser: typeof toolClientInTheBrowser }).toolClientInTheBrowser = toolClientInTheBrowser;
