import "./telemetryOff";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LangGraphAgent } from "@ag-ui/langgraph";
import { Client } from "@langchain/langgraph-sdk";
import { startChildServer } from "./childServer";

/** A LangGraph API server running the example graph in a child process. */
export interface LangGraphServer {
  /** The server's base URL (`LangGraphAgent`'s `deploymentUrl`). */
  readonly url: string;
  /** The child's process id. */
  readonly pid: number;
  /** Stops the child by its PID, waits for it to exit, and removes its state. */
  close(): Promise<void>;
}

/** How long the server may take to listen before `startLangGraphServer` gives up. */
const START_TIMEOUT_MS = 60_000;

/**
 * Starts `@langchain/langgraph-api`'s server with the graph of
 * langgraphGraph.ts (graph id "assistant") as a child process on 127.0.0.1,
 * port `port` (0: one the OS picks), in a fresh temporary directory, where it
 * keeps its threads and checkpoints. The child is tied to this process by an
 * IPC channel: it exits when this process does, even when `close()` is never
 * called (a crashed test run leaves no server behind).
 */
export async function startLangGraphServer(port = 0): Promise<LangGraphServer> {
  const cwd = mkdtempSync(join(tmpdir(), "langgraph-api-"));
  const removeState = () => rmSync(cwd, { recursive: true, force: true });
  try {
    const child = await startChildServer("langgraphServer.ts", "The LangGraph API server", { cwd, env: { PORT: String(port), LOG_LEVEL: "error" }, startTimeoutMs: START_TIMEOUT_MS });
    return { url: child.url, pid: child.pid, close: () => child.close().finally(removeState) };
  } catch (error) {
    removeState();
    throw error;
  }
}

/** The graphs the LangGraph server serves (langgraphServer.ts). */
export const LANGGRAPH_GRAPHS = ["assistant", "team", "swarm", "ops", "research"] as const;
export type LangGraphGraph = (typeof LANGGRAPH_GRAPHS)[number];

/** `@ag-ui/langgraph`'s agent for the example graph, with the interrupt outcome on (`RUN_FINISHED.outcome`). */
export function createLangGraphAgent(url: string, fetching?: typeof fetch, graphId: LangGraphGraph = "assistant"): LangGraphAgent {
  // With `fetching`, the SDK's requests go through it (a test that cuts a stream, as a page going away cuts it).
  const client = fetching && new Client({ apiUrl: url, callerOptions: { fetch: fetching, maxRetries: 0 } });
  return new LangGraphAgent({ deploymentUrl: url, graphId, emitInterruptOutcome: true, ...(client && { client }) });
}

/** The LangGraph SDK's client for the server: the thread state a test compares with what the adapter kept. */
export function langGraphClient(url: string, callerOptions?: { maxRetries: number }): Client {
  return new Client({ apiUrl: url, ...(callerOptions && { callerOptions }) });
}
