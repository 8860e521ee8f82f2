import { EventType, type BaseEvent } from "@ag-ui/core";
import { EventEncoder } from "@ag-ui/encoder";
import { asapScheduler, from, ignoreElements, lastValueFrom, type Observable } from "rxjs";
import { CarbonAgUiAdapter } from "../src/adapter";
import { agUiToCarbon } from "../src/operators/agUiToCarbon";
import { CarbonRecorder } from "../src/testing/recorder";
const events: BaseEvent[] = [{ type: EventType.RUN_STARTED, threadId: "t", runId: "r" } as BaseEvent, { type: EventType.STATE_SNAPSHOT, snapshot: { progress: 0 } } as BaseEvent];
for (let m = 0; m < 50; m++) { const messageId = `msg-${m}`; events.push({ type: EventType.TEXT_MESSAGE_START, messageId, role: "assistant" } as BaseEvent);
  for (let d = 0; d < 2000; d++) { events.push({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: `token ${d} ` } as BaseEvent); if (d % 100 === 0) events.push({ type: EventType.STATE_DELTA, delta: [{ op: "replace", path: "/progress", value: d }] } as BaseEvent); }
  events.push({ type: EventType.TEXT_MESSAGE_END, messageId } as BaseEvent); }
events.push({ type: EventType.RUN_FINISHED, threadId: "t", runId: "r" } as BaseEvent);
const enc = new EventEncoder(); const payloads = events.map((e) => enc.encodeSSE(e as never).slice(6, -2));
const drain = (o: Observable<unknown>) => lastValueFrom(o.pipe(ignoreElements()), { defaultValue: undefined });
const only = process.argv[2];
const variants: Record<string, () => unknown> = {
  floor: () => { for (const p of payloads) JSON.parse(p); },
  fused: () => drain(from(events).pipe(agUiToCarbon())),
  "html:true": () => drain(from(events).pipe(agUiToCarbon({ html: true }))),
  adapter: async () => { const carbon = new CarbonRecorder(); await new CarbonAgUiAdapter({ run: () => events, scheduler: asapScheduler }).sendMessage({ id: "q", input: { text: "hi" } } as never, { signal: new AbortController().signal }, carbon as never); },
};
(async () => {
  const samples: Record<string, number[]> = {};
  for (let round = 0; round < 11; round++) for (const [name, work] of Object.entries(variants)) { if (only && name !== only && (name !== "floor" || process.env.NOFLOOR)) continue; const a = process.cpuUsage(); await work(); const d = process.cpuUsage(a); (samples[name] ??= []).push((d.user + d.system) / 1000); }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const floor = med(samples.floor!);
  for (const [name, xs] of Object.entries(samples)) console.log(name.padEnd(16), med(xs).toFixed(0).padStart(5), "ms", (med(xs) / floor).toFixed(2) + "×");
})();
