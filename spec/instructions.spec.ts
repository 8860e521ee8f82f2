import { EventType } from "@ag-ui/core";
import { isAgUiEvent, isEventOfType, type PipelineElement } from "../src/instructions";
import { ev, instr } from "./support/builders";

describe("instructions", () => {
  it("tells events from instructions, and narrows events by type", () => {
    const event = ev.text("m1", "Hi") as PipelineElement;
    const instruction = instr.textDelta("m1", "Hi");
    expect([isAgUiEvent(event), isAgUiEvent(instruction)]).toEqual([true, false]);
    expect([isEventOfType(event, EventType.TEXT_MESSAGE_CONTENT), isEventOfType(event, EventType.TEXT_MESSAGE_END), isEventOfType(instruction, EventType.TEXT_MESSAGE_CONTENT)]).toEqual([true, false, false]);
  });
});
