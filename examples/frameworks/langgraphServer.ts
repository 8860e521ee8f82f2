/**
 * The LangGraph API server, run as a child process by `startLangGraphServer`
 * (langgraph.ts): in-process its run queue never ends. It serves the graph of
 * langgraphGraph.ts as "assistant", and the supervisor and the swarm of
 * langgraphTeam.ts as "team", "swarm" and "ops", the graph with a streaming subgraph of
 * langgraphSubgraph.ts as "research", on 127.0.0.1, keeps its state under the
 * working directory it is started in, prints `{"url": …}` on one line once it
 * listens, and exits when its parent goes (the IPC channel closes), removing
 * that directory (made for it by `startLangGraphServer`), or on SIGTERM.
 */
import "./telemetryOff";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { startServer } from "@langchain/langgraph-api/server";

process.on("disconnect", () => {
  rmSync(process.cwd(), { recursive: true, force: true });
  process.exit(0);
});
process.on("SIGTERM", () => process.exit(0));

void startServer({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1", nWorkers: 4, cwd: process.cwd(), graphs: { assistant: `${join(__dirname, "langgraphGraph.ts")}:graph`, team: `${join(__dirname, "langgraphTeam.ts")}:graph`, swarm: `${join(__dirname, "langgraphTeam.ts")}:swarm`, ops: `${join(__dirname, "langgraphTeam.ts")}:ops`, research: `${join(__dirname, "langgraphSubgraph.ts")}:graph` } }).then(
  ({ host }) => process.stdout.write(`${JSON.stringify({ url: `http://${host}` })}\n`),
  (error: unknown) => {
    process.stderr.write(`The LangGraph API server did not start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
