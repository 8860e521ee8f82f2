import { EventEncoder } from "@ag-ui/encoder";
import { startAgentServer, type AgentScript, type AgentServer } from "carbon-agui-rx/testing";

const encoder = new EventEncoder();

/** The testing kit's agent server, writing its events with the protocol's own `@ag-ui/encoder`. */
export function startEncodedAgentServer(script: AgentScript): Promise<AgentServer> {
  return startAgentServer(script, { encode: (event) => encoder.encodeSSE(event as Parameters<EventEncoder["encodeSSE"]>[0]) });
}
