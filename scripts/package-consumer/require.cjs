// The CommonJS build, required from plain Node.
const assert = require("node:assert");
const { of, lastValueFrom, toArray } = require("rxjs");
const { agUiToCarbon, Conversation } = require("carbon-agui-rx");

const events = [
  { type: "RUN_STARTED", threadId: "t1", runId: "r1" },
  { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", delta: "from CommonJS" },
  { type: "RUN_FINISHED", threadId: "t1", runId: "r1" },
];
lastValueFrom(of(...events).pipe(agUiToCarbon({ responseId: "r1" }), toArray())).then((chunks) => {
  assert.deepStrictEqual(chunks.at(-1), {
    final_response: { id: "r1", output: { generic: [{ response_type: "text", text: "from CommonJS", streaming_metadata: { id: "m1" } }] } },
  });
  console.log("CommonJS require: ok");
  const conversation = new Conversation();
  const stateEvents = [
    events[0],
    { type: "STATE_SNAPSHOT", snapshot: { n: 1 } },
    { type: "STATE_DELTA", delta: [{ op: "replace", path: "/n", value: 2 }] },
    events[2],
  ];
  return lastValueFrom(of(...stateEvents).pipe(agUiToCarbon({ conversation }))).then(() => {
    assert.deepStrictEqual(conversation.state, { n: 2 });
    console.log("CommonJS shared state: ok");
    const { CarbonRecorder, ev, marbleTest } = require("carbon-agui-rx/testing");
    marbleTest(({ agent, expectCarbon }) => {
      expectCarbon(agent("abc|", { a: ev.runStarted(), b: ev.textChunk({ messageId: "m1", delta: "Hi" }), c: ev.runFinished() })).toShow("Assistant: Hi");
    });
    assert.strictEqual(typeof CarbonRecorder, "function");
    console.log("CommonJS carbon-agui-rx/testing: ok");
    const { ToolClient, ToolServerError } = require("carbon-agui-rx/tool-client");
    const { startToolServer } = require("carbon-agui-rx/testing");
    return startToolServer().then((server) =>
      new ToolClient({ baseUrl: server.url, token: "alice-token" })
        .invoke("add", { a: 1, b: 2 })
        .then((call) => {
          assert.deepStrictEqual(call.result, { sum: 3 });
          assert.strictEqual(typeof ToolServerError, "function");
          console.log("CommonJS carbon-agui-rx/tool-client: ok");
        })
        .finally(() => server.close()),
    );
  });
});
