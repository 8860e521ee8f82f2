// Type-checks once npm overrides leave one copy of rxjs: HttpAgent.run() pipes straight into agUiToCarbon().
import { HttpAgent } from "@ag-ui/client";
import { agUiToCarbon, type CarbonStreamChunk } from "carbon-agui-rx";
import { lastValueFrom, toArray } from "rxjs";
import { input, startServer } from "./server.js";
import { checkSharedState } from "./state.js";
import { checkToolClient } from "./toolClient.js";

const { url, close } = await startServer("direct");
const agent = new HttpAgent({ url });
const chunks: CarbonStreamChunk[] = await lastValueFrom(agent.run(input).pipe(agUiToCarbon(), toArray()));
await close();
const last = chunks.at(-1);
if (!last || !("final_response" in last) || last.final_response.output.generic[0]?.text !== "direct") throw new Error("direct: wrong chunks");
console.log("ESM (HttpAgent.run().pipe): ok");
await checkSharedState("ESM (direct)");
await checkToolClient("ESM (direct)");
