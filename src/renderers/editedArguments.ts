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
  const result = new Validator(schema as ConstructorParameters<typeof Validator>[0], "2020-12", false).validate(args);
  const errors = result.errors.filter((error) => error.keyword !== "properties" && error.keyword !== "items").map((error) => `${error.instanceLocation.replace(/^#\/?/, "") || "arguments"}: ${error.error}`);
  return result.valid ? { args } : { problem: text.doesNotFit(errors) };
}
