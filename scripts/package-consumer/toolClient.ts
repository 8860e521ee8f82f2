// carbon-agui-rx/tool-client from the packed build, against the kit's reference tool server.
import { startToolServer } from "carbon-agui-rx/testing";
import { ToolClient, ToolNotFoundError, type ServerEvent } from "carbon-agui-rx/tool-client";
import { lastValueFrom, toArray } from "rxjs";

export async function checkToolClient(label: string): Promise<void> {
  const server = await startToolServer();
  try {
    const client = new ToolClient({ baseUrl: server.url, token: "alice-token" });
    const call = await client.invoke<{ sum: number }>("add", { a: 2, b: 3 }, { runId: "pkg" });
    if (call.status !== "ok" || call.result.sum !== 5) throw new Error(`${label}: invoke gave ${JSON.stringify(call)}`);
    const notFound = await client.invoke("nope", {}).catch((error: unknown) => error);
    if (!(notFound instanceof ToolNotFoundError)) throw new Error(`${label}: expected ToolNotFoundError`);
    const events = lastValueFrom(client.events$("pkg").pipe(toArray()));
    setTimeout(() => server.endRun("pkg", { done: true }), 100);
    const names = (await events).map((event: ServerEvent) => event.event);
    if (names.at(-1) !== "end") throw new Error(`${label}: events ended with ${names.at(-1)}`);
    console.log(`${label} carbon-agui-rx/tool-client: ok`);
  } finally {
    await server.close();
  }
}
