import { ev, scriptedAgent } from "carbon-agui-rx/testing";

/** An AG-UI endpoint on loopback (the testing kit's, from the packed package) that answers every run with the same text. */
export async function startServer(text: string): Promise<{ url: string; close(): Promise<void> }> {
  const agent = await scriptedAgent((_input, sse) => {
    for (const event of ev.run(ev.message("m1", text))) sse.send(event);
    sse.end();
  });
  return { url: agent.url, close: agent.close };
}

export const input = { threadId: "t1", runId: "r1", messages: [], tools: [], context: [], state: {} };
