import type * as Carbon from "@carbon/ai-chat";
import { createAgUiSendMessage } from "../src/adapter";
import {
  CancellationReason,
  MessageErrorState,
  type CarbonChainOfThoughtStep,
  type CarbonMessageOptions,
  type CarbonReasoningStep,
  type CarbonReasoningSteps,
  type CarbonResponseType,
  type CarbonStreamChunk,
  type CarbonTextItem,
} from "../src/carbon";
import type { DecisionCardsOptions } from "../src/renderers/decisionCards";
import type { CarbonEditInstance } from "../src/carbon";
import { createSseRunner } from "../src/runners/createSseRunner";

/**
 * Checks our structural Carbon types against the real `@carbon/ai-chat`
 * 1.9.1 types, imported as types only. Most of it is checked by the
 * compiler (`npm run typecheck`); a mismatch fails the build.
 */

/** Carbon's string enums, by the field that holds them: we emit their runtime values as plain strings. */
interface CarbonEnums {
  response_type: Carbon.MessageResponseTypes;
  status: Carbon.ChainOfThoughtStepStatus;
  open_state: Carbon.ReasoningStepOpenState;
}

/** Our types with each enum field as Carbon's enum. */
type WithCarbonEnums<T> = T extends readonly (infer Item)[]
  ? WithCarbonEnums<Item>[]
  : T extends object
    ? { [K in keyof T]: K extends keyof CarbonEnums ? CarbonEnums[K] : WithCarbonEnums<T[K]> }
    : T;

/** Compile-time assertion that `Actual` is assignable to `Expected`. */
type Assignable<Actual extends Expected, Expected> = Actual;

export type TextItemsAreCarbons = Assignable<WithCarbonEnums<CarbonTextItem>, Carbon.TextItem>;
export type ChainOfThoughtStepsAreCarbons = Assignable<WithCarbonEnums<CarbonChainOfThoughtStep>, Carbon.ChainOfThoughtStep>;
export type ReasoningStepsAreCarbons = Assignable<WithCarbonEnums<CarbonReasoningSteps>, Carbon.ReasoningSteps>;
export type MessageOptionsAreCarbons = Assignable<WithCarbonEnums<CarbonMessageOptions>, Carbon.MessageResponseOptions>;
export type EmittedChunksAreCarbonChunks = Assignable<WithCarbonEnums<CarbonStreamChunk>, Carbon.StreamChunk>;
export type SendMessageIsCustomSendMessage = Assignable<ReturnType<typeof createAgUiSendMessage>, NonNullable<Carbon.PublicConfigMessaging["customSendMessage"]>>;
export type ResponseTypesAreCarbons = Assignable<CarbonResponseType, `${Carbon.MessageResponseTypes}`>;
export type CarbonsResponseTypesAreOurs = Assignable<`${Carbon.MessageResponseTypes}`, CarbonResponseType>;
export type StepStatusesMatch = Assignable<NonNullable<CarbonChainOfThoughtStep["status"]>, `${Carbon.ChainOfThoughtStepStatus}`>;
export type OpenStatesMatch = Assignable<NonNullable<CarbonReasoningStep["open_state"]>, `${Carbon.ReasoningStepOpenState}`>;
export type ChatInstanceRendersCards = Assignable<Carbon.ChatInstance, DecisionCardsOptions["instance"]>;
export type ChatInstanceEditsQuestions = Assignable<Carbon.ChatInstance, CarbonEditInstance>;
export type ErrorStateMatches = Assignable<`${typeof MessageErrorState.FAILED_WHILE_STREAMING}`, `${Carbon.MessageErrorState.FAILED_WHILE_STREAMING}`>;
export type RestartReasonMatches = Assignable<(typeof CancellationReason)["CONVERSATION_RESTARTED"], `${Carbon.CancellationReason.CONVERSATION_RESTARTED}`>;
export type StopReasonMatches = Assignable<(typeof CancellationReason)["STOP_STREAMING"], `${Carbon.CancellationReason.STOP_STREAMING}`>;
export type TimeoutReasonMatches = Assignable<(typeof CancellationReason)["TIMEOUT"], `${Carbon.CancellationReason.TIMEOUT}`>;

describe("Carbon types", () => {
  it("lets createAgUiSendMessage be Carbon's customSendMessage in a real config object", () => {
    const messaging: Carbon.PublicConfigMessaging = {
      customSendMessage: createAgUiSendMessage({ run: createSseRunner({ url: "http://127.0.0.1:1/" }) }),
    };
    expect(typeof messaging.customSendMessage).toBe("function");
  });
});
