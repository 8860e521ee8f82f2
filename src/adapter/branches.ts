import { contentToText } from "@ag-ui/core";
import { BehaviorSubject, type Observable } from "rxjs";
import type { CarbonEditInstance, CarbonVersionsInstance } from "../carbon";
import { AgUiEditError, CarbonAgUiError } from "../errors";
import { randomId } from "../internal/ids";
import type { Thread } from "../thread/thread";
import { regenerateRefusal, switchVersion, versionsState$, type AnswerVersionsState, type ServerBranches } from "./answerVersions";
import { editRefusal, questionsState$, switchQuestion, type QuestionVersionsState } from "./questionVersions";
import type { Delivery } from "./turns/delivery";
import { regenerateTurn } from "./turns/regenerate";
import type { Turns } from "./turns/turnPath";

/** What the branches of a thread's log lend from the adapter. */
export interface BranchesHost {
  turns: Turns;
  delivery: Delivery;
  threads: Observable<Thread>;
  current(): Thread;
  server(): ServerBranches;
  /** Follows `instance` (its stop button, its restart) as the adapter's latest. */
  follow(instance: CarbonVersionsInstance): void;
  disposed(): boolean;
}

/**
 * The branches of the thread's log as the person moves between them: the
 * versions of the latest answer (a regenerate adds one) and of each
 * question (an edit adds one). An edit is begun (`startEdit`: the
 * question's text in Carbon's input) and made by the next message sent,
 * which takes the question's place (`takeEdit`); a thread switch or a
 * reset lets go of it.
 */
export class Branches {
  private readonly editing = new BehaviorSubject<string | undefined>(undefined);
  /** The versions bar of the latest answer. */
  readonly answerVersions$: Observable<AnswerVersionsState | undefined>;
  /** The questions of the current branch, each with its versions, as the controls under them draw them. */
  readonly questionVersions$: Observable<QuestionVersionsState[]>;

  constructor(private readonly host: BranchesHost) {
    this.answerVersions$ = versionsState$(host.threads);
    this.questionVersions$ = questionsState$(host.threads, this.editing);
    host.threads.subscribe(() => this.editing.value !== undefined && this.editing.next(undefined));
  }

  async regenerate(instance: CarbonVersionsInstance, signal: AbortSignal | undefined): Promise<void> {
    const { turns, delivery } = this.usable("asks nothing again");
    const refusal = turns.busy ? undefined : regenerateRefusal(this.host.current());
    if (refusal) throw refusal;
    this.host.follow(instance);
    delivery.closeStreams();
    await turns.play(regenerateTurn(instance, signal, this.host.server(), delivery));
  }

  async switchVersion(index: number, instance: CarbonVersionsInstance): Promise<void> {
    await this.usable("switches nothing").turns.idle();
    await switchVersion(this.host.current(), index, instance, this.host.server());
  }

  /** Puts question `requestId`'s text in Carbon's input: the next message sent takes its place. Refused (`AgUiEditError`) while a card waits or a turn plays. */
  startEdit(requestId: string, instance: CarbonEditInstance): void {
    const { turns } = this.usable("edits nothing");
    const question = turns.busy ? new AgUiEditError("A turn plays: wait for its answer, or stop it, before editing a question") : editRefusal(this.host.current(), requestId);
    if (question instanceof AgUiEditError) throw question;
    this.host.follow(instance);
    const { content } = question.act.message;
    const text = contentToText(content);
    instance.input.updateRawValue(() => text);
    this.editing.next(requestId);
  }

  /** Sends `text` in place of question `requestId`, as `startEdit` and then the person's send would. */
  async editQuestion(requestId: string, text: string, instance: CarbonEditInstance): Promise<void> {
    this.startEdit(requestId, instance);
    instance.input.updateRawValue(() => "");
    await instance.send({ id: randomId(), input: { text } });
  }

  /** Lets go of the edit begun: the next message is a message like any other. */
  cancelEdit(): void {
    if (this.editing.value !== undefined) this.editing.next(undefined);
  }

  /** The question a message sent now takes the place of, if an edit was begun (it is then over). */
  takeEdit(): string | undefined {
    const requestId = this.editing.value;
    this.cancelEdit();
    return requestId;
  }

  async switchQuestion(index: number, requestId: string, instance: CarbonEditInstance): Promise<void> {
    await this.usable("switches nothing").turns.idle();
    this.cancelEdit();
    await switchQuestion(this.host.current(), index, requestId, instance, this.host.server());
  }

  private usable(refuses: string): BranchesHost {
    if (this.host.disposed()) throw new CarbonAgUiError(`This adapter was disposed: it ${refuses}`);
    return this.host;
  }
}
