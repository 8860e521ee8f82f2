// Type-checks with two copies of rxjs (no npm overrides): fromAgent wraps
// @ag-ui/client's Observable into the consumer's own rxjs.
import { HttpAgent } from "@ag-ui/client";
import { agUiToCarbon, fromAgent, type CarbonStreamChunk } from "carbon-agui-rx";
import { lastValueFrom, toArray } from "rxjs";
import { input, startServer } from "./server.js";
import { checkSharedState } from "./state.js";
import { checkToolClient } from "./toolClient.js";

const { url, close } = await startServer("wrapped");
const run = fromAgent(new HttpAgent({ url }));
const chunks: CarbonStreamChunk[] = await lastValueFrom(run(input, { signal: new AbortController().signal }).pipe(agUiToCarbon(), toArray()));
await close();
const last = chunks.at(-1);
if (!last || !("final_response" in last) || last.final_response.output.generic[0]?.text !== "wrapped") throw new Error("wrapped: wrong chunks");
console.log("ESM (fromAgent): ok");
await checkSharedState("ESM (wrapped)");
await checkToolClient("ESM (wrapped)");
