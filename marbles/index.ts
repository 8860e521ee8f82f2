import activitiesAndState from "./activities-and-state";
import burst from "./burst";
import type { MarbleScenario } from "./scenario";
import cutStream from "./cut-stream";
import endsWithoutRunFinished from "./ends-without-run-finished";
import generativeUi from "./generative-ui";
import interrupt from "./interrupt";
import lifecycleEvents from "./lifecycle-events";
import nonStreamingGraph from "./non-streaming-graph";
import protocolViolation from "./protocol-violation";
import strayEvent from "./stray-event";
import reasoning from "./reasoning";
import renderCost from "./render-cost";
import runErrorMidway from "./run-error-midway";
import stoppedByUser from "./stopped-by-user";
import streamedText from "./streamed-text";
import subagents from "./subagents";
import textChunks from "./text-chunks";
import toolCallChunks from "./tool-call-chunks";
import toolCalls from "./tool-calls";

/** Every scenario; `spec/marbles.spec.ts` runs them all. */
export const scenarios: readonly MarbleScenario[] = [streamedText, burst, renderCost, textChunks, endsWithoutRunFinished, runErrorMidway, stoppedByUser, cutStream, protocolViolation, strayEvent, generativeUi, toolCalls, reasoning, nonStreamingGraph, activitiesAndState, toolCallChunks, lifecycleEvents, subagents, interrupt];
