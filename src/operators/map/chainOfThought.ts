import type { MonoTypeOperatorFunction } from "rxjs";
import type { CarbonChainOfThoughtStep } from "../../carbon";
import type { ChainStepChange, PipelineElement } from "../../instructions";
import { createOperator } from "../fusion";

/**
 * The one chain of thought of a response, from the steps the mapping stages
 * own (`chain.steps`: a tool call's, a subagent's): a new step goes after
 * the step it belongs under and the steps already under it (a subagent
 * after the call that started it, a subagent's call after the subagent),
 * else last; a changed step keeps its place. Each change becomes an
 * `options` instruction with the whole chain, as Carbon merges arrays by
 * index and cannot delete: the chain only grows, and a chain once sent is
 * never written again (a change makes a new array).
 *
 * ```
 * source: --a--b--c--|    a: chain.steps [tool:t1]; b: [subagent:s1 under tool:t1]; c: [tool:t2]
 * result: --A--B--C--|    A: options [t1]; B: [t1, s1]; C: [t1, s1, t2]
 * ```
 */
export function chainOfThought(): MonoTypeOperatorFunction<PipelineElement> {
  return createOperator<PipelineElement, PipelineElement>(
    (out) => {
      const order: string[] = [];
      const steps = new Map<string, CarbonChainOfThoughtStep>();
      /** What each step belongs under, for the steps placed under another. */
      const parents = new Map<string, string>();
      /** Where the step under `key` ends: after it and everything placed under it (and under those). */
      const endOf = (key: string) => {
        let at = order.indexOf(key);
        if (at === -1) return -1;
        while (at + 1 < order.length && isUnder(order[at + 1]!, key)) at++;
        return at;
      };
      const isUnder = (key: string, ancestor: string): boolean => {
        for (let parent = parents.get(key); parent !== undefined; parent = parents.get(parent)) if (parent === ancestor) return true;
        return false;
      };
      const place = ({ key, step, under }: ChainStepChange) => {
        if (!steps.has(key)) {
          const after = under === undefined ? -1 : endOf(under);
          if (after === -1) order.push(key);
          else {
            order.splice(after + 1, 0, key);
            parents.set(key, under!);
          }
        }
        steps.set(key, step);
      };
      return {
        next(element) {
          if (!("kind" in element) || element.kind !== "chain.steps") return out.next(element);
          for (const change of element.changes) place(change);
          out.next({ kind: "options", options: { chain_of_thought: order.map((key) => steps.get(key)!) } });
        },
      };
    },
    ["chain.steps"],
  );
}
