import { InterruptSchema, MessageSchema, TokenUsageSchema } from "@ag-ui/core/schemas";
import { z } from "zod/v4";
import { AgUiSnapshotError } from "../errors";
import { isRecord } from "../internal/isRecord";
import { SNAPSHOT_VERSION, type ConversationSnapshot } from "./snapshot";

/** How large a stored conversation may be. */
export interface SnapshotLimits {
  /** The snapshot as JSON, in UTF-16 code units. Default 16 Mi (8× what a 200-turn conversation takes). */
  maxChars?: number;
  /** Messages, transcript entries, activities, each. Default 10,000. */
  maxEntries?: number;
}

const MAX_PROBLEMS = 10;
const time = z.iso.datetime({ offset: true });
const looseRecord = z.record(z.string(), z.unknown());
const item = z.looseObject({
  response_type: z.string(),
  streaming_metadata: z.looseObject({ id: z.string(), cancellable: z.boolean().optional(), stream_stopped: z.boolean().optional() }).optional(),
});
const status = z.enum(["processing", "failure", "success"]);
const openState = z.enum(["open", "close", "default"]);
const messageOptions = z.looseObject({
  chain_of_thought: z.array(z.looseObject({ title: z.string().optional(), description: z.string().optional(), tool_name: z.string().optional(), status: status.optional() })).optional(),
  reasoning: z
    .looseObject({ open_state: openState.optional(), content: z.string().optional(), steps: z.array(z.looseObject({ title: z.string(), open_state: openState.optional(), content: z.string().optional() })).optional() })
    .optional(),
});
const feedback = z.record(z.string(), z.object({ is_positive: z.boolean(), text: z.string().optional(), categories: z.array(z.string()).optional() }));
const decision = z.discriminatedUnion("type", [z.object({ type: z.literal("approve") }), z.object({ type: z.literal("edit"), args: z.unknown() }), z.object({ type: z.literal("reject") }), z.object({ type: z.literal("answer"), result: z.unknown() })]);

function snapshotSchema(maxEntries: number) {
  const request = z.object({ kind: z.literal("request"), id: z.string(), text: z.string(), time });
  const response = z.object({
    kind: z.literal("response"),
    id: z.string(),
    requestId: z.string().optional(),
    runId: z.string().optional(),
    time,
    items: z.array(item).max(maxEntries),
    messageOptions: messageOptions.optional(),
    errorState: z.number().int().optional(),
    unfinished: z.boolean().optional(),
    feedback: feedback.optional(),
  });
  const decided = z.object({ kind: z.literal("decision"), interruptId: z.string(), answer: z.enum(["approve", "edit", "reject", "answer", "cancelled"]), time });
  const entries = z.array(z.discriminatedUnion("kind", [request, response, decided])).max(maxEntries);
  const activities = z.array(z.object({ messageId: z.string(), activityType: z.string(), content: looseRecord, requestId: z.string().optional() })).max(maxEntries);
  const keptAnswer = z.object({ messages: z.array(MessageSchema).max(maxEntries), activities, transcript: entries, branch: z.string().optional() });
  const versions = z
    .object({ requestId: z.string(), chosen: z.number().int().nonnegative(), answers: z.array(keptAnswer.nullable()).min(1).max(maxEntries) })
    .refine(({ chosen, answers }) => chosen < answers.length && answers[chosen] === null && answers.filter((answer) => answer === null).length === 1, "the chosen version must be the one answer not kept aside");
  return z.object({
    version: z.literal(SNAPSHOT_VERSION),
    threadId: z.string().min(1),
    savedAt: time,
    messages: z.array(MessageSchema).max(maxEntries),
    state: z.unknown(),
    activities,
    pendingInterrupts: z.array(z.object({ interrupt: InterruptSchema, decision: decision.optional() })).max(maxEntries),
    transcript: entries,
    usage: z.array(TokenUsageSchema).max(maxEntries).optional(),
    versions: versions.optional(),
  });
}

/**
 * Reads a stored conversation (from storage anyone on the page can write, or
 * from a server): the snapshot, or an `AgUiSnapshotError` saying where it
 * does not fit — never with the values. It refuses a document that is not
 * JSON (a cycle, too deep), larger than `maxChars`, of another `version`
 * (discarded: no older format exists to migrate from), or with a field that
 * does not fit. Fields it does not know are dropped.
 */
export function parseSnapshot(raw: unknown, limits: SnapshotLimits = {}): ConversationSnapshot {
  const { maxChars = 16 * 1024 * 1024, maxEntries = 10_000 } = limits;
  if (!isRecord(raw)) throw new AgUiSnapshotError("The stored conversation is not a snapshot (not an object)");
  const { version } = raw;
  if (version !== SNAPSHOT_VERSION) {
    const named = typeof version === "number" && Number.isSafeInteger(version) ? `version ${version}` : "no version";
    throw new AgUiSnapshotError(`The stored conversation has ${named}; this library reads version ${SNAPSHOT_VERSION}, so it was discarded`);
  }
  let chars: number;
  try {
    chars = JSON.stringify(raw).length;
  } catch (error) {
    throw new AgUiSnapshotError(`The stored conversation is not JSON (${error instanceof Error ? error.name : "unknown error"})`);
  }
  if (chars > maxChars) throw new AgUiSnapshotError(`The stored conversation is ${chars} characters long, more than the ${maxChars} allowed`);
  const parsed = snapshotSchema(maxEntries).safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, MAX_PROBLEMS).map((issue) => `${issue.path.join(".") || "(the snapshot)"}: ${issue.message}`);
    throw new AgUiSnapshotError("The stored conversation does not fit the snapshot format", problems);
  }
  return parsed.data as ConversationSnapshot;
}
