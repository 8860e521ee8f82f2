import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AbstractAgent, EventType, type BaseEvent, type RunAgentInput } from "@ag-ui/client";
import { A2AMiddlewareAgent } from "@ag-ui/a2a-middleware";
import type { AgentCard } from "@a2a-js/sdk";
import { DefaultRequestHandler, InMemoryTaskStore, JsonRpcTransportHandler, type AgentExecutor } from "@a2a-js/sdk/server";
import { concatMap, from, map, timer, type Observable } from "rxjs";

export interface A2aAgentServer {
  url: string;
  close(): Promise<void>;
}

/** A local A2A agent ("Writer") on 127.0.0.1, an ephemeral port: it answers each task with a draft of it. */
export async function startA2aWriter(): Promise<A2aAgentServer> {
  const executor: AgentExecutor = {
    async execute(context, bus) {
      const task = context.userMessage.parts.flatMap((part) => (part.kind === "text" ? [part.text] : [])).join(" ");
      bus.publish({ kind: "message", messageId: `draft-${context.userMessage.messageId}`, role: "agent", parts: [{ kind: "text", text: `Draft: ${task}` }], contextId: context.contextId });
      bus.finished();
    },
    async cancelTask() {},
  };
  let card: AgentCard;
  const http: Server = createServer(async (request, response) => {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    if (request.method === "GET" && path === "/.well-known/agent.json") return void response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(card));
    if (request.method !== "POST") return void response.writeHead(404).end();
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const answer = await transport.handle(JSON.parse(Buffer.concat(chunks).toString("utf8")));
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  card = { name: "Writer", description: "Writes a draft of what it is asked", url, version: "1.0.0", protocolVersion: "0.2.5", capabilities: {}, defaultInputModes: ["text"], defaultOutputModes: ["text"], skills: [{ id: "draft", name: "Draft", description: "Drafts a text", tags: ["writing"] }] } as AgentCard;
  const transport = new JsonRpcTransportHandler(new DefaultRequestHandler(card, new InMemoryTaskStore(), executor));
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/**
 * The orchestrator's scripted "model": asked by the person, it sends the task to the Writer
 * (`send_message_to_a2a_agent`, the middleware's tool); given the Writer's answer, it says so.
 */
class Orchestrator extends AbstractAgent {
  run(input: RunAgentInput): Observable<BaseEvent> {
    const { runId, threadId } = input;
    const last = input.messages.at(-1);
    const body: BaseEvent[] =
      last?.role === "tool"
        ? [
            { type: EventType.TEXT_MESSAGE_START, messageId: `m-${runId}`, role: "assistant" } as BaseEvent,
            { type: EventType.TEXT_MESSAGE_CONTENT, messageId: `m-${runId}`, delta: `The writer sent: ${String(last.content).replace(/^A2A Agent Response: /, "")}` } as BaseEvent,
            { type: EventType.TEXT_MESSAGE_END, messageId: `m-${runId}` } as BaseEvent,
          ]
        : [
            { type: EventType.TOOL_CALL_START, toolCallId: `a2a-${runId}`, toolCallName: "send_message_to_a2a_agent", parentMessageId: `m-${runId}` } as BaseEvent,
            { type: EventType.TOOL_CALL_ARGS, toolCallId: `a2a-${runId}`, delta: JSON.stringify({ agentName: "Writer", task: String(last?.content ?? "") }) } as BaseEvent,
            { type: EventType.TOOL_CALL_END, toolCallId: `a2a-${runId}` } as BaseEvent,
          ];
    // A model's events come over the network, a task apart each (the middleware reads the run's messages as its own
    // subscription applied them: events that all came at once would reach RUN_FINISHED before).
    return from([{ type: EventType.RUN_STARTED, runId, threadId } as BaseEvent, ...body, { type: EventType.RUN_FINISHED, runId, threadId } as BaseEvent]).pipe(concatMap((event) => timer(0).pipe(map(() => event))));
  }
}

/** `@ag-ui/a2a-middleware`'s agent: the scripted orchestrator, routing to the A2A agents at `agentUrls`. */
export const createA2aAgent = (agentUrls: string[]) => new A2AMiddlewareAgent({ agentUrls, orchestrationAgent: new Orchestrator() });
