import type { RunAgentInput } from "@ag-ui/core";
import { createSseRunner, type CarbonAgUiError } from "carbon-agui-rx";
import { startToolServer, type ToolServer } from "carbon-agui-rx/testing";
import { ToolClient } from "carbon-agui-rx/tool-client";
import { createApprovalsAgent, approvalsReply } from "../../examples/frameworks/approvals";
import { serveCopilotKit, stoppingCopilotKitRuns, type RunningServer } from "../../examples/frameworks/copilotkit";
import { scriptedModel } from "../../examples/frameworks/scriptedModel";
import { Chat } from "./partners";

/**
 * A tool server's approval decided in the chat, with a real framework: an AI
 * SDK agent (`streamText`) in CopilotKit's runtime, served over HTTP, calls the
 * reference tool server through `ToolClient.asVercelTools` as the run's owner
 * (alice), in the AG-UI run's id; the scripted model calls `send_email`, which
 * waits for a reviewer. The Carbon adapter (a recording Carbon) has the
 * reviewer's ToolClient: it shows the card, the reviewer decides, and the
 * continuation run reaches the framework, whose model answers from the tool's result.
 */
let tools: ToolServer;
let agent: RunningServer;
let model: ReturnType<typeof scriptedModel>;
const errors: CarbonAgUiError[] = [];
/** What the adapters warned of: the reviewer may not read the events of alice's runs, so no late approval is followed. */
const warnings: string[] = [];

beforeEach(async () => {
  tools = await startToolServer();
  model = scriptedModel(approvalsReply);
  agent = await serveCopilotKit(createApprovalsAgent(model, new ToolClient({ baseUrl: tools.url, token: "alice-token", retry: { maxRetries: 0 } })));
  errors.length = 0;
  warnings.length = 0;
});
/** The chats of the test: their adapters stop following the tool server's runs before it closes. */
const chats: Chat[] = [];
afterEach(async () => {
  for (const made of chats.splice(0)) made.adapter.dispose();
  await agent.close();
  await tools.close();
});

/** The AG-UI runs the adapter started, by their input. */
const runs: RunAgentInput[] = [];
const reviewer = () => new ToolClient({ baseUrl: tools.url, token: "reviewer-token", retry: { maxRetries: 0 } });

function chat(): Chat {
  const run = stoppingCopilotKitRuns(createSseRunner({ url: agent.url }), agent.url);
  runs.length = 0;
  const made = new Chat({
    run: (input, options) => (runs.push(input), run(input, options)),
    coalesce: false,
    toolClient: reviewer(),
    onError: (error) => errors.push(error),
    onWarning: (warning) => warnings.push(warning.message),
  });
  chats.push(made);
  return made;
}

const PROMPT = "send the weekly report by e-mail to ops@example.com";

/** The tool results the framework handed its model, in its last call. */
function toolResultsInLastModelCall(): unknown[] {
  const call = model.doStreamCalls.at(-1)!;
  return call.prompt.flatMap((message) => (message.role === "tool" ? message.content.map((part) => (part.type === "tool-result" ? part.output : undefined)) : []));
}

async function askedToSend(): Promise<Chat> {
  const person = chat();
  expect(await person.say(PROMPT)).toBeUndefined();
  return person;
}

describe("a tool server's approval with an AI SDK agent in CopilotKit's runtime", () => {
  it("waits as a card: the step waits for approval, the run is the AG-UI run, and nothing ran yet", async () => {
    const person = await askedToSend();
    const transcript = person.carbon.transcript();
    expect(transcript).toContain("send_email (success)");
    expect(transcript).toContain("[decision card: Allow send_email?");
    expect(transcript).toContain("needs a reviewer's approval");
    const [pending] = person.adapter.pendingInterrupts;
    expect(pending!.interrupt.reason).toBe("tool_server_approval");
    expect(pending!.interrupt.metadata).toMatchObject({ approvalId: expect.stringMatching(/^apr_/) });
    expect(pending!.interrupt.responseSchema).toMatchObject({ type: "object", required: ["to"] });
    expect(tools.toolRuns("send_email")).toBe(0);
    // The approval belongs to the AG-UI run the adapter started, asked for by the run's owner.
    const approval = await reviewer().getApproval(pending!.interrupt.metadata!.approvalId as string);
    expect(runs).toHaveLength(1);
    expect(approval).toMatchObject({ run_id: runs[0]!.runId, status: "pending" });
    expect(errors).toEqual([]);
    // The reviewer is not the run's owner: the tool server keeps the run's events from it, and the chat says so.
    expect(warnings).toEqual([`The tool server could not tell which approvals run ${runs[0]!.runId} asked for (its events); they get no card`]);
  });

  it("approved with an edit (cc): the tool runs once with it, the continuation reaches the framework, and its answer built from the result shows", async () => {
    const person = await askedToSend();
    const callsBefore = model.doStreamCalls.length;
    expect(await person.decide({ type: "edit", args: { to: "ops@example.com", subject: "Weekly report", cc: "audit@example.com" } })).toBeUndefined();
    expect(tools.toolRuns("send_email")).toBe(1);
    expect(model.doStreamCalls.length).toBe(callsBefore + 1);
    // The continuation: a new AG-UI run with the whole history, no resume, the pending result replaced by the tool's.
    expect(runs).toHaveLength(2);
    expect(runs[1]!.resume).toBeUndefined();
    expect(runs[1]!.runId).not.toBe(runs[0]!.runId);
    expect(runs[1]!.messages.filter((message) => message.role === "tool")).toHaveLength(1);
    expect(JSON.stringify(toolResultsInLastModelCall())).toContain("audit@example.com");
    expect(JSON.stringify(toolResultsInLastModelCall())).not.toContain("pending_approval");
    expect(person.carbon.transcript()).toContain("Sent the weekly report to ops@example.com, with audit@example.com in cc.");
    expect(person.adapter.pendingInterrupts).toEqual([]);
    expect(errors).toEqual([]);
    for (const count of Object.values(person.finalsPerMessage())) expect(count).toBe(1);
  });

  it("denied with a reason: the tool never runs, and the agent says why", async () => {
    const person = await askedToSend();
    expect(await person.decide({ type: "reject", reason: "not before Monday" })).toBeUndefined();
    expect(tools.toolRuns("send_email")).toBe(0);
    expect(person.carbon.transcript()).toContain('I did not send the e-mail: the reviewer said "not before Monday".');
    expect(person.adapter.pendingInterrupts).toEqual([]);
    expect(errors).toEqual([]);
  });
});
