// The CommonJS build, required from plain Node.
const assert = require("node:assert");
const { of, lastValueFrom, toArray } = require("rxjs");
const { agUiToCarbon } = require("carbon-agui-rx");

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
});
