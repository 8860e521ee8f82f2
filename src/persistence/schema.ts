import { InterruptSchema, MessageSchema, TokenUsageSchema } from "@ag-ui/core/schemas";
import { z } from "zod/v4";
import { AgUiSnapshotError } from "../errors";
import { isRecord } from "../internal/isRecord";
import { logOfVersion1, type SnapshotVersion1 } from "./migrateVersion1";
import { SNAPSHOT_VERSION, type ConversationSnapshot } from "./snapshot";

/** How large a stored conversation may be. */
export interface SnapshotLimits {
  /** The snapshot as JSON, in UTF-16 code units. Default 16 Mi. */
  maxChars?: number;
  /** Log entries, messages, transcript entries, activities, each. Default 10,000. */
  maxEntries?: number;
  /** The events of one run (compacted: consecutive deltas are one). Default 100,000. */
  maxEvents?: number;
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
const feedbackFields = z.object({ is_positive: z.boolean(), text: z.string().optional(), categories: z.array(z.string()).optional() });
const feedback = z.record(z.string(), feedbackFields);
const decision = z.discriminatedUnion("type", [
  z.object({ type: z.literal("approve") }),
  z.object({ type: z.literal("edit"), args: z.unknown() }),
  z.object({ type: z.literal("reject"), reason: z.string().optional() }),
  z.object({ type: z.literal("answer"), result: z.unknown() }),
]);
const answer = z.enum(["approve", "edit", "reject", "answer", "cancelled"]);
const pendingInterrupt = z.object({ interrupt: InterruptSchema, decision: decision.optional() });

function transcriptSchema(maxEntries: number) {
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
  const decided = z.object({ kind: z.literal("decision"), interruptId: z.string(), answer, time });
  return z.array(z.discriminatedUnion("kind", [request, response, decided])).max(maxEntries);
}

function activitiesSchema(maxEntries: number) {
  return z.array(z.object({ messageId: z.string(), activityType: z.string(), content: looseRecord, requestId: z.string().optional() })).max(maxEntries);
}

/** The format of version 2: a thread's log. */
function logSchema({ maxEntries, maxEvents }: Required<Omit<SnapshotLimits, "maxChars">>) {
  const base = { id: z.string().min(1), parent: z.string().optional(), time };
  const resumeEntry = z.looseObject({ interruptId: z.string(), status: z.enum(["resolved", "cancelled"]), payload: z.unknown().optional() });
  const run = z.object({
    ...base,
    kind: z.literal("run"),
    runId: z.string(),
    parentRunId: z.string().optional(),
    responseId: z.string(),
    requestId: z.string().optional(),
    answers: z.array(z.object({ interruptId: z.string(), answer, entry: resumeEntry })).max(maxEntries).optional(),
    // Each event is checked again when it is replayed (the stages validate what they show), as a live one is.
    events: z.array(z.looseObject({ type: z.string() })).max(maxEvents),
    ended: z.enum(["finished", "stopped", "failed", "open"]),
    failure: z.object({ message: z.string(), shown: z.string().optional() }).optional(),
    responded: z.boolean().optional(),
    origin: z.literal("chat").optional(),
  });
  const userMessage = MessageSchema.refine((message) => message.role === "user", "a message of the person's");
  const toolMessage = MessageSchema.refine((message) => message.role === "tool", "a tool result");
  const act = z.discriminatedUnion("type", [
    z.object({ type: z.literal("message"), message: userMessage }),
    z.object({ type: z.literal("decision"), interruptId: z.string(), decision }),
    z.object({ type: z.literal("toolResult"), message: toolMessage, answers: z.object({ interruptId: z.string(), answer }).optional() }),
    z.object({ type: z.literal("surfaceAction"), activityId: z.string(), action: looseRecord }),
    z.object({ type: z.literal("feedback"), responseId: z.string(), feedbackId: z.string(), feedback: feedbackFields }),
    z.object({ type: z.literal("switch") }),
    z.object({ type: z.literal("serverBranch"), of: z.string(), branch: z.string() }),
  ]);
  const imported = z.object({
    ...base,
    kind: z.literal("imported"),
    messages: z.array(MessageSchema).max(maxEntries),
    activities: activitiesSchema(maxEntries),
    transcript: transcriptSchema(maxEntries),
    state: z.unknown().optional(),
    pendingInterrupts: z.array(pendingInterrupt).max(maxEntries).optional(),
    usage: z.array(TokenUsageSchema).max(maxEntries).optional(),
  });
  return z
    .object({
      version: z.literal(SNAPSHOT_VERSION),
      threadId: z.string().min(1),
      savedAt: time,
      entries: z.array(z.discriminatedUnion("kind", [run, z.object({ ...base, kind: z.literal("act"), act }), imported])).max(maxEntries),
      head: z.string().optional(),
    })
    .refine(({ entries, head }) => head === undefined || entries.some((entry) => entry.id === head), "the head must be an entry of the log")
    .refine(({ entries }) => parentsComeFirst(entries), "every entry must grow from one written before it");
}

/** The format of version 1: the thread's projections, each stored (see `migrateVersion1`). */
function version1Schema(maxEntries: number) {
  const entries = transcriptSchema(maxEntries);
  const activities = activitiesSchema(maxEntries);
  const keptAnswer = z.object({ messages: z.array(MessageSchema).max(maxEntries), activities, transcript: entries, branch: z.string().optional() });
  const versions = z
    .object({ requestId: z.string(), chosen: z.number().int().nonnegative(), answers: z.array(keptAnswer.nullable()).min(1).max(maxEntries) })
    .refine(({ chosen, answers }) => chosen < answers.length && answers[chosen] === null && answers.filter((kept) => kept === null).length === 1, "the chosen version must be the one answer not kept aside");
  return z.object({
    version: z.literal(1),
    threadId: z.string().min(1),
    savedAt: time,
    messages: z.array(MessageSchema).max(maxEntries),
    state: z.unknown(),
    activities,
    pendingInterrupts: z.array(pendingInterrupt).max(maxEntries),
    transcript: entries,
    usage: z.array(TokenUsageSchema).max(maxEntries).optional(),
    versions: versions.optional(),
  });
}

/**
 * Reads a stored thread (from storage anyone on the page can write, or from
 * a server): the snapshot, or an `AgUiSnapshotError` saying where it does
 * not fit — never with the values. It refuses a document that is not JSON
 * (a cycle, too deep), larger than `maxChars`, of a version it does not
 * read, or with a field that does not fit. A snapshot of version 1 (the
 * thread's views, each stored) is read into a log (`logOfVersion1`): no
 * conversation saved before is lost. Fields it does not know are dropped.
 */
export function parseSnapshot(raw: unknown, limits: SnapshotLimits = {}): ConversationSnapshot {
  const { maxChars = 16 * 1024 * 1024, maxEntries = 10_000, maxEvents = 100_000 } = limits;
  if (!isRecord(raw)) throw new AgUiSnapshotError("The stored conversation is not a snapshot (not an object)");
  const { version } = raw;
  if (version !== SNAPSHOT_VERSION && version !== 1) {
    const named = typeof version === "number" && Number.isSafeInteger(version) ? `version ${version}` : "no version";
    throw new AgUiSnapshotError(`The stored conversation has ${named}; this library reads versions 1 and ${SNAPSHOT_VERSION}, so it was discarded`);
  }
  let chars: number;
  try {
    chars = JSON.stringify(raw).length;
  } catch (error) {
    throw new AgUiSnapshotError(`The stored conversation is not JSON (${error instanceof Error ? error.name : "unknown error"})`);
  }
  if (chars > maxChars) throw new AgUiSnapshotError(`The stored conversation is ${chars} characters long, more than the ${maxChars} allowed`);
  const parsed = version === 1 ? version1Schema(maxEntries).safeParse(raw) : logSchema({ maxEntries, maxEvents }).safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, MAX_PROBLEMS).map((issue) => `${issue.path.join(".") || "(the snapshot)"}: ${issue.message}`);
    throw new AgUiSnapshotError("The stored conversation does not fit the snapshot format", problems);
  }
  return version === 1 ? logOfVersion1(parsed.data as SnapshotVersion1) : (parsed.data as ConversationSnapshot);
}

/** Whether every entry's parent is an entry written before it (the log is a tree grown in order). */
function parentsComeFirst(entries: readonly { id: string; parent?: string | undefined }[]): boolean {
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.id) || (entry.parent !== undefined && !seen.has(entry.parent))) return false;
    seen.add(entry.id);
  }
  return true;
}
