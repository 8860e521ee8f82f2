// Type-checks with two copies of rxjs (no npm overrides): fromAgent, and the
// README's fromObservable(agent.run(input)), wrap @ag-ui/client's Observable
// into the consumer's own rxjs (the event type inferred, not unknown).
import { HttpAgent } from "@ag-ui/client";
import { agUiToCarbon, fromAgent, fromObservable, type CarbonStreamChunk } from "carbon-agui-rx";
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

const observedServer = await startServer("observed");
const observed = await lastValueFrom(fromObservable(new HttpAgent({ url: observedServer.url }).run(input)).pipe(agUiToCarbon(), toArray()));
await observedServer.close();
const lastObserved = observed.at(-1);
if (!lastObserved || !("final_response" in lastObserved) || lastObserved.final_response.output.generic[0]?.text !== "observed") throw new Error("fromObservable: wrong chunks");
console.log("ESM (fromObservable(agent.run(input))): ok");
await checkSharedState("ESM (wrapped)");
await checkToolClient("ESM (wrapped)");
