import { Validator, type OutputUnit } from "@cfworker/json-schema";
import { isRecord } from "../../internal/isRecord";

/** One reason the arguments were rejected: where (a JSON pointer into the arguments) and what the schema wanted. */
export interface ArgumentError {
  path: string;
  message: string;
}

// Keywords whose errors only say "something below failed": the errors below are the ones to report.
const WRAPPERS = new Set([
  "properties", "patternProperties", "additionalProperties", "unevaluatedProperties", "dependentSchemas",
  "items", "prefixItems", "additionalItems", "unevaluatedItems", "$ref", "$recursiveRef", "allOf", "if",
]);
// Keywords whose branch errors would confuse more than help: report the keyword itself, not the branches.
const ALTERNATIVES = new Set(["anyOf", "oneOf", "not"]);

/**
 * Validates `args` against `schema` and describes each failure in words of
 * our own, built from the schema alone: cfworker's messages quote the input
 * (`"hunter2" is too long`), and arguments may carry secrets.
 */
export function argumentErrors(schema: object, validator: Validator, args: unknown): ArgumentError[] {
  const units = validator.validate(args).errors;
  const alternatives = units.filter((unit) => ALTERNATIVES.has(unit.keyword)).map((unit) => unit.keywordLocation + "/");
  const errors = units
    .filter((unit) => !WRAPPERS.has(unit.keyword) && !alternatives.some((prefix) => unit.keywordLocation.startsWith(prefix)))
    .map((unit) => describe(schema, unit));
  return errors.length > 0 || units.length === 0 ? errors : [{ path: "", message: "does not match the schema" }];
}

function describe(root: object, unit: OutputUnit): ArgumentError {
  const path = pointerOf(unit.instanceLocation);
  const value = schemaAt(root, unit.keywordLocation);
  const parent = schemaAt(root, unit.keywordLocation.replace(/\/[^/]*$/, "")) as Record<string, unknown> | undefined;
  switch (unit.keyword) {
    case "required": {
      // The missing name comes from the schema, not from the input.
      const name = /required property "(.*)"\.$/.exec(unit.error)?.[1];
      return name === undefined ? { path, message: "misses a required property" } : { path: `${path}/${escape(name)}`, message: "is required" };
    }
    case "dependentRequired":
    case "dependencies": {
      const [, present, missing] = /^Instance has "(.*)" but does not have "(.*)"\.$/.exec(unit.error) ?? [];
      return present === undefined || missing === undefined
        ? { path, message: "does not satisfy a dependency between properties" }
        : { path: `${path}/${escape(missing)}`, message: `is required when ${JSON.stringify(present)} is present` };
    }
    case "type": {
      const types = Array.isArray(value) ? value : [value];
      return { path, message: `must be ${types.filter((type) => typeof type === "string").join(" or ") || "of another type"}` };
    }
    case "false":
      return { path, message: "is not allowed" };
    case "const":
      return { path, message: `must be ${JSON.stringify(value)}` };
    case "enum":
      return { path, message: `must be one of ${JSON.stringify(value)}` };
    case "minimum":
      return { path, message: `must be ${parent?.["exclusiveMinimum"] === true ? ">" : ">="} ${String(value)}` };
    case "maximum":
      return { path, message: `must be ${parent?.["exclusiveMaximum"] === true ? "<" : "<="} ${String(value)}` };
    case "exclusiveMinimum":
      return { path, message: `must be > ${String(value)}` };
    case "exclusiveMaximum":
      return { path, message: `must be < ${String(value)}` };
    case "multipleOf":
      return { path, message: `must be a multiple of ${String(value)}` };
    case "minLength":
      return { path, message: `must have at least ${String(value)} characters` };
    case "maxLength":
      return { path, message: `must have at most ${String(value)} characters` };
    case "pattern":
      return { path, message: `must match the pattern ${String(value)}` };
    case "format":
      return { path, message: `must be a valid ${String(value)}` };
    case "minItems":
      return { path, message: `must have at least ${String(value)} items` };
    case "maxItems":
      return { path, message: `must have at most ${String(value)} items` };
    case "uniqueItems":
      return { path, message: "must not contain duplicate items" };
    case "minProperties":
      return { path, message: `must have at least ${String(value)} properties` };
    case "maxProperties":
      return { path, message: `must have at most ${String(value)} properties` };
    case "propertyNames":
      return { path, message: "has a property name the schema does not allow" };
    case "contains":
    case "minContains":
    case "maxContains":
      return { path, message: "does not contain the number of matching items the schema asks for" };
    case "anyOf":
      return { path, message: "must match at least one of the allowed schemas" };
    case "oneOf":
      return { path, message: "must match exactly one of the allowed schemas" };
    case "not":
      return { path, message: "must not match the excluded schema" };
    default:
      return { path, message: `does not satisfy "${unit.keyword}"` };
  }
}

/** cfworker's locations are URI fragments ("#/a%20b"); the problem's paths are plain JSON pointers ("/a b"). */
function pointerOf(location: string): string {
  const fragment = location.replace(/^#/, "");
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

const escape = (name: string) => name.replace(/~/g, "~0").replace(/\//g, "~1");

/** The schema value at a keyword location, following local `$ref`s on the way; undefined when it cannot be followed. */
function schemaAt(root: object, location: string): unknown {
  let node: unknown = root;
  for (const raw of pointerOf(location).split("/").slice(1)) {
    const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (segment === "$ref" && isRecord(node) && typeof node["$ref"] === "string") {
      const ref = node["$ref"];
      if (!ref.startsWith("#")) return undefined;
      node = schemaAt(root, ref);
      continue;
    }
    if (!isRecord(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}
