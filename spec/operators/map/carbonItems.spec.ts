import { EventType, type BaseEvent } from "@ag-ui/core";
import { map } from "rxjs";
import { AgUiInvalidItemError } from "../../../src/errors";
import type { PipelineElement } from "../../../src/instructions";
import { carbonItems } from "../../../src/operators/map/carbonItems";
import { ev } from "../../support/builders";
import { testScheduler } from "../../support/marbles";
import { itFollowsTheOperatorContract } from "../../support/operatorContract";

const custom = (name: string, value: unknown) => ({ type: EventType.CUSTOM, name, value }) as BaseEvent;
const elements = (values: Record<string, unknown>) => values as Record<string, PipelineElement>;
const image = { response_type: "image", source: "https://example.test/chart.png" };
const button = { response_type: "button", button_type: "post_back", label: "Book it", value: { input: { text: "book" } }, streaming_metadata: { id: "book" } };
const complete = (itemId: string, item: object): PipelineElement => ({ kind: "item.complete", itemId, item: item as never });

describe("carbonItems", () => {
  it("turns carbon.item and carbon.items into complete items, keeping their ids or numbering them", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-b---o-|", elements({ a: custom("carbon.item", image), b: custom("carbon.items", [button, image]), o: custom("on_interrupt", {}) }));
      expectObservable(source.pipe(carbonItems())).toBe("-a-(bc)o-|", {
        a: complete("carbon-item-1", image),
        b: complete("book", button),
        c: complete("carbon-item-2", image),
        o: custom("on_interrupt", {}) as PipelineElement,
      });
      expectSubscriptions(source.subscriptions).toBe("^--------!");
    });
  });

  it("skips items Carbon cannot render, telling onInvalidItem why", () => {
    const invalid: [unknown, AgUiInvalidItemError][] = [];
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-a-b-c-|", elements({
        a: custom("carbon.item", { response_type: "image" }),
        b: custom("carbon.items", [{ response_type: "hologram" }, image]),
        c: custom("carbon.items", image),
      }));
      expectObservable(source.pipe(carbonItems({ onInvalidItem: (item, error) => invalid.push([item, error]) }))).toBe("---b---|", { b: complete("carbon-item-1", image) });
    });
    expect(invalid.map(([, error]) => error.problems)).toEqual([
      ["item.source: must be a string"],
      [expect.stringMatching(/^item\.response_type: must be one of/)],
      ["carbon.items: the value must be an array of items"],
    ]);
    expect(invalid.every(([, error]) => error instanceof AgUiInvalidItemError)).toBe(true);
  });

  it("errors when onInvalidItem throws, and unsubscribes the source", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-b-|", elements({ a: custom("carbon.item", {}), b: custom("carbon.item", image) }));
      const onInvalidItem = () => {
        throw new Error("strict host");
      };
      expectObservable(source.pipe(carbonItems({ onInvalidItem }))).toBe("-#", undefined, new Error("strict host"));
      expectSubscriptions(source.subscriptions).toBe("^!");
    });
  });

  it("errors when a downstream callback throws", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const result = cold("-a-|", elements({ a: custom("carbon.item", image) })).pipe(
        carbonItems(),
        map(() => {
          throw new Error("bad");
        }),
      );
      expectObservable(result).toBe("-#", undefined, new Error("bad"));
    });
  });

  itFollowsTheOperatorContract(() => carbonItems(), ev.custom("x") as PipelineElement);
});
