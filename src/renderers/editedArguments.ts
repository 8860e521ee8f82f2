import { Validator } from "@cfworker/json-schema";
import type { DecisionCardText } from "./cardText";

/** The edited arguments, parsed and checked against the interrupt's schema, or what is wrong with them. */
export function editedArguments(source: string, schema: object | undefined, text: DecisionCardText): { args: unknown } | { problem: string } {
  let args: unknown;
  try {
    args = JSON.parse(source);
  } catch (error) {
    return { problem: text.notJson((error as Error).message) };
  }
  if (schema === undefined) return { args };
  // The validator marks the schema it is given; a card's schema is frozen (Carbon's store, the adapter's pending interrupts), and not ours.
  const result = new Validator(structuredClone(schema) as ConstructorParameters<typeof Validator>[0], "2020-12", false).validate(args);
  // The leaves only: "properties" and "items" repeat their children's errors, and "false" (a property no schema allows) its parent's additionalProperties.
  const leaves = result.errors.filter((error) => error.keyword !== "properties" && error.keyword !== "items" && error.keyword !== "false");
  const errors = leaves.map((error) => `${error.instanceLocation.replace(/^#\/?/, "") || "arguments"}: ${error.error.replace(/\.$/, "")}`);
  return result.valid ? { args } : { problem: text.doesNotFit(errors) };
}
