import type { Message } from "@ag-ui/core";
import { BehaviorSubject, combineLatest, distinctUntilChanged, map, type Observable } from "rxjs";
import type { CarbonVersionsInstance } from "../carbon";
import type { Conversation } from "../conversation";
import { AgUiRegenerateError } from "../errors";
import { putBack, responseIdsOf, setAside, withChosen, withNewVersion, type AnswerVersions, type KeptAnswer } from "../persistence/answerVersions";
import { historyItemsOf, type RestoreOptions } from "../persistence/restore";
import type { TranscriptEntry } from "../persistence/transcript";
import type { TranscriptLog } from "../persistence/transcriptLog";
import type { ThreadBranches, ThreadCallOptions } from "../threads/agentThreads";

/** The versions bar of the latest answer, as the renderers draw it. */
export interface AnswerVersionsState {
  /** The latest response: the bar is under it. */
  responseId: string;
  /** The question it answers. */
  requestId: string;
  /** The version shown, from 0. */
  index: number;
  count: number;
  /** Whether it may be asked again now: no card waits for an answer. */
  canRegenerate: boolean;
}

/** The latest answer set aside for a regenerate: what to put back if the new one shows nothing, and the run the new one grows from. */
export interface SetAside {
  requestId: string;
  replaced: KeptAnswer;
  /** The versions before. */
  before: AnswerVersions | undefined;
  /** The run before the question: the one a new answer branches from (AG-UI's `parentRunId`). */
  parentRunId?: string;
}

/**
 * The versions of the latest answer, kept in the transcript log
 * (`AnswerVersions`): what the versions bar shows, a regenerate's setting
 * aside of the answer, and switching between versions, in the conversation
 * and in Carbon's chat (the shown version's messages removed, the other's
 * added, so nothing else of the chat is redrawn).
 */
export class AnswerVersionsOf {
  /** Pokes the bar: a final response recorded, a version switched, a thread opened. */
  private readonly changes = new BehaviorSubject<void>(undefined);

  constructor(
    private readonly deps: {
      logOf(conversation: Conversation): TranscriptLog;
      save(conversation: Conversation): void;
      restoreOptions: RestoreOptions;
      /** The agent's server's branches of a thread, where it keeps them: it is moved first, and a refusal there changes nothing here. */
      branches: ThreadBranches | undefined;
      callOptions: ThreadCallOptions;
    },
  ) {}

  /** Something the bar shows may have changed. */
  changed(): void {
    this.changes.next();
  }

  /** The bar of the conversation's latest answer, as it changes. */
  state$(conversation$: Observable<Conversation>, pending$: Observable<unknown>): Observable<AnswerVersionsState | undefined> {
    return combineLatest([conversation$, pending$, this.changes]).pipe(
      map(([conversation]) => this.state(conversation)),
      distinctUntilChanged((a, b) => JSON.stringify(a) === JSON.stringify(b)),
    );
  }

  /** The bar of the conversation's latest answer: none before a question has one. */
  state(conversation: Conversation): AnswerVersionsState | undefined {
    const log = this.deps.logOf(conversation);
    const requestId = log.lastRequestId();
    const entries = log.toEntries();
    const last = entries[entries.length - 1];
    if (requestId === undefined || last?.kind !== "response" || last.requestId !== requestId) return undefined;
    const { versions } = log;
    return { responseId: last.id, requestId, index: versions?.chosen ?? 0, count: versions?.answers.length ?? 1, canRegenerate: conversation.pendingInterrupts.length === 0 };
  }

  /** Why the latest answer cannot be asked again now, or nothing when it can. */
  refusal(conversation: Conversation): string | undefined {
    const state = this.state(conversation);
    if (!state) return "There is no answer to ask again: the latest question has none yet";
    if (!state.canRegenerate) return "A card waits for an answer: answer it before asking again";
    return undefined;
  }

  /** Sets the latest answer aside for a regenerate (the conversation ends with its question), taking it out of Carbon's chat. */
  async setAsideLatest(conversation: Conversation, instance: CarbonVersionsInstance): Promise<SetAside> {
    const refusal = this.refusal(conversation);
    if (refusal) throw new AgUiRegenerateError(refusal);
    const log = this.deps.logOf(conversation);
    const requestId = log.lastRequestId()!;
    const parentRunId = runBefore(log.toEntries(), requestId);
    const { branches, callOptions } = this.deps;
    const branch = await branches?.forkBefore(conversation.threadId, requestId, callOptions);
    const before = log.versions;
    const replaced = { ...setAside(conversation, log, requestId), ...(branch !== undefined && { branch }) };
    log.versions = withNewVersion(before, requestId, replaced);
    await instance.messaging.removeMessages(responseIdsOf(replaced.transcript));
    return { requestId, replaced, before, ...(parentRunId !== undefined && { parentRunId }) };
  }

  /** After a regenerate's turn: when the new answer showed nothing (stopped before it began), the replaced one is put back, with the versions as they were. */
  async settle(conversation: Conversation, instance: CarbonVersionsInstance, aside: SetAside): Promise<void> {
    const log = this.deps.logOf(conversation);
    const entries = log.toEntries();
    if (entries[entries.length - 1]?.kind !== "response") {
      if (aside.replaced.branch !== undefined) await this.deps.branches?.moveTo(conversation.threadId, aside.replaced.branch, this.deps.callOptions);
      setAside(conversation, log, aside.requestId);
      putBack(conversation, log, aside.replaced);
      log.versions = aside.before;
      await this.show(instance, aside.replaced.transcript);
    }
    this.deps.save(conversation);
    this.changed();
  }

  /** Shows version `index` of the latest answer in place of the one shown: in the conversation, its transcript and Carbon's chat. */
  async switchTo(conversation: Conversation, index: number, instance: CarbonVersionsInstance): Promise<void> {
    const log = this.deps.logOf(conversation);
    const { versions } = log;
    if (!versions || !Number.isInteger(index) || index < 0 || index >= versions.answers.length) throw new AgUiRegenerateError(`There is no version ${index + 1} of the latest answer`);
    if (index === versions.chosen) return;
    if (conversation.pendingInterrupts.length > 0) throw new AgUiRegenerateError("A card waits for an answer: answer it before switching versions");
    const { branches, callOptions } = this.deps;
    const target = versions.answers[index]?.branch;
    let head: string | undefined;
    if (branches && target !== undefined) {
      head = await branches.head(conversation.threadId, callOptions);
      await branches.moveTo(conversation.threadId, target, callOptions);
    }
    const replaced = { ...setAside(conversation, log, versions.requestId), ...(head !== undefined && { branch: head }) };
    const { versions: next, shown } = withChosen(versions, index, replaced);
    putBack(conversation, log, shown);
    log.versions = next;
    await instance.messaging.removeMessages(responseIdsOf(replaced.transcript));
    await this.show(instance, shown.transcript);
    this.deps.save(conversation);
    this.changed();
  }

  /** An answer's responses into Carbon's chat, as restored history shows them (checked and escaped again). */
  private async show(instance: CarbonVersionsInstance, transcript: readonly TranscriptEntry[]): Promise<void> {
    for (const item of historyItemsOf(transcript, this.deps.restoreOptions)) if ("output" in item.message) await instance.messaging.addMessage(item.message);
  }
}

/** The run of the last response before the question `requestId`. */
function runBefore(entries: readonly TranscriptEntry[], requestId: string): string | undefined {
  const at = entries.findIndex((entry) => entry.kind === "request" && entry.id === requestId);
  for (let before = at - 1; before >= 0; before--) {
    const entry = entries[before]!;
    if (entry.kind === "response" && entry.runId !== undefined) return entry.runId;
  }
  return undefined;
}

/** The answer's last words: the last assistant message with text after the question `requestId`, before the next one. */
export function lastAnswerMessage(messages: readonly Message[], requestId: string | undefined): string | undefined {
  const from = messages.findIndex((message) => message.id === requestId);
  if (from === -1) return undefined;
  let found: string | undefined;
  for (const message of messages.slice(from + 1)) {
    if (message.role === "user") break;
    if (message.role === "assistant" && typeof message.content === "string" && message.content !== "" && message.subagentRunId === undefined) found = message.id;
  }
  return found;
}
