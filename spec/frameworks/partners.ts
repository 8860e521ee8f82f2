import { HttpAgent } from "@ag-ui/client";
import type { CarbonStreamChunk } from "carbon-agui-rx";
import { CarbonAgUiAdapter, createSseRunner, fromAgent, type CarbonAgUiAdapterOptions, type InterruptDecision, type RunAgent } from "carbon-agui-rx";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { createCopilotKitAgent, serveCopilotKit, stoppingCopilotKitRuns } from "../../examples/frameworks/copilotkit";
import { createMastraAgent, serveMastra } from "../../examples/frameworks/mastra";
import { scriptedModel, type ModelScript } from "../../examples/frameworks/scriptedModel";
import { waitUntil as waitFor } from "../support/runs";

export type Framework = "CopilotKit" | "Mastra";
/** How the adapter reaches the agent: the agent object in this process, or its HTTP endpoint through our SSE runner or `@ag-ui/client`'s `HttpAgent`. */
export type Transport = "in-process" | "createSseRunner" | "HttpAgent";

export const transports: readonly Transport[] = ["in-process", "createSseRunner", "HttpAgent"];

/** A real framework agent driven by a scripted mock model, reachable through one transport. */
export interface Partner {
  run: RunAgent;
  /** The mock model: its `doStreamCalls` hold what the framework sent it. */
  model: ReturnType<typeof scriptedModel>;
  close(): Promise<void>;
}

export async function startPartner(framework: Framework, transport: Transport, script: ModelScript): Promise<Partner> {
  const model = scriptedModel(script);
  const agent = framework === "CopilotKit" ? createCopilotKitAgent(model) : createMastraAgent(model);
  if (transport === "in-process") return { run: fromAgent(agent), model, close: async () => undefined };
  const server = framework === "CopilotKit" ? await serveCopilotKit(agent as ReturnType<typeof createCopilotKitAgent>) : await serveMastra(agent as ReturnType<typeof createMastraAgent>);
  const run = transport === "createSseRunner" ? createSseRunner({ url: server.url }) : fromAgent(new HttpAgent({ url: server.url }));
  // CopilotKit's runtime needs telling when the client stops a run (see stoppingCopilotKitRuns).
  return { run: framework === "CopilotKit" ? stoppingCopilotKitRuns(run, server.url) : run, model, close: () => server.close() };
}

/** A person chatting through Carbon (a recording stand-in) with the adapter. */
export class Chat {
  /** Carbon, its send (an edited question) handed to the adapter as Carbon's customSendMessage. */
  readonly carbon = new CarbonRecorder((request, options, instance) => this.adapter.sendMessage(request, options, instance));
  readonly adapter: CarbonAgUiAdapter;
  private sent = 0;
  /** The error of the latest turn, as the adapter reported it to onError (the chat showed it, so the send resolved). */
  private reported: unknown;

  constructor(options: CarbonAgUiAdapterOptions) {
    this.adapter = new CarbonAgUiAdapter({
      ...options,
      onError: (error) => {
        this.reported = error;
        options.onError?.(error);
      },
    });
  }

  /** Sends a message; resolves with the turn's error (shown in the chat, or the rejection), or undefined when it went well. */
  say(text: string, signal = new AbortController().signal): Promise<unknown> {
    this.reported = undefined;
    const request = { id: `u${++this.sent}`, input: { text }, history: {} };
    this.carbon.userSays(text, request.id);
    return this.adapter.sendMessage(request, { signal }, this.carbon).then(
      () => this.reported,
      (error: unknown) => error,
    );
  }

  /** Answers the pending interrupt (or the one named); resolves with the rejection, or undefined. */
  decide(decision: InterruptDecision | "approve" | "reject", interruptId?: string): Promise<unknown> {
    return this.adapter.respondToInterrupt(typeof decision === "string" ? { type: decision } : decision, this.carbon, {}, interruptId).then(
      () => undefined,
      (error: unknown) => error,
    );
  }

  /** How many final responses each Carbon message got, by response id (every message must have exactly one). */
  finalsPerMessage(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const chunk of this.carbon.chunks) {
      const id = responseIdOf(chunk);
      counts[id] = (counts[id] ?? 0) + ("final_response" in chunk ? 1 : 0);
    }
    return counts;
  }
}

function responseIdOf(chunk: CarbonStreamChunk): string {
  return "final_response" in chunk ? chunk.final_response.id : chunk.streaming_metadata.response_id;
}

/** Resolves once `condition` holds, checking every 10 ms for at most 5 s (frameworks answer slower than our own agents). */
export const waitUntil = (condition: () => boolean): Promise<void> => waitFor(condition, 5_000, 10);
