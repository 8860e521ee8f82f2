import "./telemetryOff";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { LangGraphAgent } from "@ag-ui/langgraph";
import { Client } from "@langchain/langgraph-sdk";

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
export function startLangGraphServer(port = 0): Promise<LangGraphServer> {
  const cwd = mkdtempSync(join(tmpdir(), "langgraph-api-"));
  const tsx = pathToFileURL(require.resolve("tsx")).href;
  const child = spawn(process.execPath, ["--import", tsx, join(__dirname, "langgraphServer.ts")], {
    cwd,
    env: { ...process.env, PORT: String(port), LOG_LEVEL: "error" },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  const { stdout, stderr } = child;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid as number, "SIGTERM");
    await exited;
    rmSync(cwd, { recursive: true, force: true });
  };
  if (!stdout || !stderr) return close().then(() => Promise.reject(new Error("The LangGraph API server's output is not piped")));
  let errors = "";
  stderr.setEncoding("utf8").on("data", (text: string) => (errors = (errors + text).slice(-2_000)));
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      void close().then(() => reject(new Error(`The LangGraph API server did not start: ${why}${errors ? `\n${errors}` : ""}`)));
    };
    const timer = setTimeout(() => fail(`not listening after ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    const early = (code: number | null) => fail(`it exited with ${code}`);
    child.once("exit", early);
    let output = "";
    stdout.setEncoding("utf8").on("data", (text: string) => {
      output += text;
      const ready = /^\{"url":.*\}$/m.exec(output);
      if (!ready) return;
      clearTimeout(timer);
      child.off("exit", early);
      stdout.removeAllListeners("data").resume();
      resolve({ url: (JSON.parse(ready[0]) as { url: string }).url, pid: child.pid as number, close });
    });
  });
}

/** `@ag-ui/langgraph`'s agent for the example graph, with the interrupt outcome on (`RUN_FINISHED.outcome`). */
/** The graphs the LangGraph server serves (langgraphServer.ts). */
export const LANGGRAPH_GRAPHS = ["assistant", "team", "swarm", "ops"] as const;
export type LangGraphGraph = (typeof LANGGRAPH_GRAPHS)[number];

export function createLangGraphAgent(url: string, fetching?: typeof fetch, graphId: LangGraphGraph = "assistant"): LangGraphAgent {
  // With `fetching`, the SDK's requests go through it (a test that cuts a stream, as a page going away cuts it).
  const client = fetching && new Client({ apiUrl: url, callerOptions: { fetch: fetching, maxRetries: 0 } });
  return new LangGraphAgent({ deploymentUrl: url, graphId, emitInterruptOutcome: true, ...(client && { client }) });
}

/** The LangGraph SDK's client for the server: the thread state a test compares with what the adapter kept. */
export function langGraphClient(url: string, callerOptions?: { maxRetries: number }): Client {
  return new Client({ apiUrl: url, ...(callerOptions && { callerOptions }) });
}
