/**
 * Serves a real framework agent, driven by a scripted mock model, as an AG-UI
 * endpoint for the browser demo:
 *
 *   npm run demo:copilotkit     (or: npm run demo:mastra, npm run demo:langgraph, npm run demo:a2ui)
 *
 * and serves the demo page on it too (built by `npm run build:demo`), which
 * prints its address. With CopilotKit and LangGraph the page restores a
 * thread from the agent's server (`?thread=<id>` in its URL: the same
 * conversation in every browser, a run still going rejoined after a
 * reload); CopilotKit through its runtime's connect route, LangGraph through
 * serveAgent's thread routes (examples/web/httpThreads.ts). The page
 * alone, against the printed agent:
 *
 *   AGUI_URL=<the printed url> AGUI_THREADS=<the printed kind> npm run demo
 *
 * The model answers by keyword: "weather" calls a tool for the city named
 * (or asks which) and reports its result, "stock" calls a tool that throws,
 * for the ticker named, "delete" calls a tool a person must approve (a
 * decision card), "think" reasons first, "story" tells one and stays open 3 s
 * after it (a run to stop, or to rejoin after a reload); anything else is echoed. The
 * LangGraph graph has its own keywords (see langgraphGraph.ts): "weather",
 * "delete", "tidy" (two cards at once), "inventory" (a node that throws) and
 * "story" (a long answer to stop). `LANGGRAPH_GRAPH=team npm run demo:langgraph` serves the supervisor of
 * langgraphTeam.ts instead (`swarm` and `ops` its other teams): "… and fact-check it" has its writer's tool throw. The A2UI agent (a2ui.ts, behind the
 * real A2UI middleware) paints a booking form when asked to "book a room".
 */
import { createA2uiAgent } from "./a2ui";
import { createCopilotKitAgent, serveCopilotKit, type RunningServer } from "./copilotkit";
import { createLangGraphAgent, LANGGRAPH_GRAPHS, startLangGraphServer, type LangGraphGraph } from "./langgraph";
import { createMastraAgent, serveMastra } from "./mastra";
import { cityIn, tickerIn } from "../askedFor";
import { serveAgent } from "./serveAgent";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { startWebDemo, type DemoThreads } from "../web/serve";
import { scriptedModel, type ModelReply } from "./scriptedModel";

/** The demo's model: a reply chosen from the last message of the prompt. */
export const demoReply: ModelReply = ({ prompt }) => {
  const last = prompt[prompt.length - 1];
  if (last?.role === "tool") {
    const results = last.content.map((part) => (part.type === "tool-result" ? JSON.stringify(part.output.type === "json" || part.output.type === "text" ? part.output.value : part.output) : "")).join(", ");
    return { text: ["Here is ", "what I found: ", results] };
  }
  const said = last?.role === "user" ? last.content.map((part) => (part.type === "text" ? part.text : "")).join(" ") : "";
  const id = `call-${Date.now()}`;
  if (/weather/i.test(said)) {
    const city = cityIn(said);
    return city === undefined ? { text: ["Which city?"] } : { text: ["Let me look that up."], toolCalls: [{ id, name: "get_weather", args: { city } }] };
  }
  if (/stock/i.test(said)) return { toolCalls: [{ id, name: "get_stock_price", args: { symbol: tickerIn(said) ?? "IBM" } }] };
  if (/delete/i.test(said)) return { text: ["I need your approval first."], toolCalls: [{ id, name: "delete_files", args: { pattern: "*.tmp" } }] };
  // A long answer, held open after its text: for the stop button, and for a reload that rejoins the run still going.
  // With CARBON_AGUI_STORY_GATE (the browser tests), held until `GET <gate>/hold` is answered: the test drives its pace.
  if (/story/i.test(said)) {
    const gate = process.env.CARBON_AGUI_STORY_GATE;
    const held = gate ? { holdUntil: () => fetch(`${gate}/hold`).then((response) => void response.body?.cancel()) } : { holdAfterTextMs: 3_000 };
    return { text: ["Once upon a time ", "there was ", "a runtime ", "that kept ", "its runs ", "going."], ...held };
  }
  if (/think/i.test(said)) return { reasoning: ["The person wants ", "me to think."], text: ["I thought about it: ", "yes."] };
  return { text: ["You said: ", said || "(nothing)"] };
};

/** A framework's agent as the demo serves it, and where it keeps its threads for the page (`AGUI_THREADS`). */
export interface FrameworkServer extends RunningServer {
  /** "connect": CopilotKit runtime's connect route; "http": serveAgent's thread routes; absent: the agent keeps none. */
  readonly threads?: DemoThreads;
  /** LangGraph: the LangGraph API server's URL (for its SDK client). */
  readonly langGraphUrl?: string;
}

export async function serveFramework(framework: string, port = 0): Promise<FrameworkServer> {
  const model = scriptedModel(demoReply, { pauseMs: 30 });
  if (framework === "copilotkit") return { ...(await serveCopilotKit(createCopilotKitAgent(model), port)), threads: "connect" };
  if (framework === "mastra") return serveMastra(createMastraAgent(model), port);
  if (framework === "langgraph") return serveLangGraph(port);
  if (framework === "a2ui") return serveAgent(createA2uiAgent(), port);
  throw new Error(`Unknown framework '${framework}': copilotkit, mastra, langgraph or a2ui`);
}

/** The graph `LANGGRAPH_GRAPH` names, else the example graph. */
function langGraphGraph(): LangGraphGraph {
  const named = process.env.LANGGRAPH_GRAPH ?? "assistant";
  const graph = LANGGRAPH_GRAPHS.find((candidate) => candidate === named);
  if (!graph) throw new Error(`Unknown LANGGRAPH_GRAPH '${named}': ${LANGGRAPH_GRAPHS.join(", ")}`);
  return graph;
}

/** The LangGraph API server with the graph `LANGGRAPH_GRAPH` names (a child process), behind an AG-UI endpoint that runs `LangGraphAgent`. */
async function serveLangGraph(port: number): Promise<FrameworkServer> {
  const graph = langGraphGraph();
  const langGraph = await startLangGraphServer();
  try {
    const endpoint = await serveAgent(createLangGraphAgent(langGraph.url, undefined, graph), port);
    return { url: endpoint.url, threads: "http", langGraphUrl: langGraph.url, close: () => endpoint.close().finally(() => langGraph.close()) };
  } catch (error) {
    await langGraph.close();
    throw error;
  }
}

if (require.main === module) {
  const framework = process.argv[2] ?? "copilotkit";
  void serveFramework(framework, Number(process.env.PORT ?? 0)).then(async (server) => {
    const alone = `AGUI_URL=${server.url}${server.threads ? ` AGUI_THREADS=${server.threads}` : ""} npm run demo`;
    console.log(`${framework} agent (scripted mock model): ${server.url}`);
    // The page too, where it is built; else the command that builds and serves it.
    const built = existsSync(join(__dirname, "../web/dist/page.js"));
    const page = built ? await startWebDemo(server.url, server.threads) : undefined;
    if (page) console.log(`Open the demo: ${page.url}${server.threads ? "  (threads restored from the agent's server; the thread id follows in ?thread=)" : ""}`);
    else console.log(`The demo page is not built: npm run build:demo, then run this again; or: ${alone}`);
    console.log(`The page alone: ${alone}   (Ctrl+C to stop)`);
    // Ctrl+C: the LangGraph server is a child process, stopped with the endpoint.
    process.once("SIGINT", () => void Promise.all([page?.close(), server.close()]).finally(() => process.exit(0)));
  });
}
