import { DataContext, type ComponentNode, type NodeProps } from "@a2ui/web_core/v0_9";
import { isRecord } from "../internal/isRecord";
import { control, create } from "../renderers/controls";
import { fieldChecks, type FieldChecks } from "./fieldChecks";
import { read, readText, writable, type PaintContext, type Painter } from "./paintContext";
import { safeRegExp } from "./safeRegExp";

/** An input as the view reads it: Carbon's web components and native inputs alike expose `value` and `checked`. */
export type InputElement = HTMLElement & { value: string; checked: boolean; disabled: boolean };

/**
 * Draws a labelled field: the Carbon control takes its label as an
 * attribute, a native one sits in a `label`; the checks' message follows.
 */
function labelled(context: PaintContext, input: InputElement, label: string, checks: FieldChecks, labelAttribute = "label"): HTMLElement {
  const element = create(context.document, "div", "cagr-a2ui-field");
  if (input.localName.startsWith("cds-")) {
    input.setAttribute(labelAttribute, label);
    element.append(input, checks.message);
  } else {
    const wrapper = create(context.document, "label", "cagr-a2ui-label");
    wrapper.append(create(context.document, "span", "cagr-a2ui-label-text", label), input);
    element.append(wrapper, checks.message);
  }
  return element;
}

/**
 * Writes what the person enters to `key`'s binding (on the native events and
 * Carbon's own, `events`), reading it with `valueOf`, and reveals the
 * field's checks.
 */
function listen(node: ComponentNode, context: PaintContext, input: InputElement, events: string[], key: string, valueOf: () => unknown, checks: FieldChecks, props: () => NodeProps): void {
  const onChange = () => {
    const binding = writable(props(), key);
    if (binding) context.write(node, binding, valueOf());
    checks.reveal();
  };
  for (const event of events) input.addEventListener(event, onChange);
}

/** The field's resolved props, kept as the effect hands them on. */
function propsHolder(initial: NodeProps): { get: () => NodeProps; set: (props: NodeProps) => void } {
  let props = initial;
  return { get: () => props, set: (next) => (props = next) };
}

/**
 * A TextField: `cds-text-input` (a `cds-textarea` for `longText`, type
 * number for `number`), else the native input. Its `validationRegexp` is
 * checked with `safeRegExp`. An `obscured` field (a password) is drawn only
 * with `allowObscured`; otherwise a notice says the chat does not collect
 * secrets.
 */
export const paintTextField: Painter = (node, props, context) => {
  const variant = String(read(props, "variant") ?? "shortText");
  const label = readText(props, "label");
  if (variant === "obscured" && !context.allowObscured) {
    context.warn(`TextField ${node.componentId} asks for a secret (an obscured field): not drawn.`);
    const notice = create(context.document, "p", "cagr-a2ui-notice", `This form asks for a secret${label ? ` (${label})` : ""}, which the chat does not collect: that field is not shown.`);
    return { element: notice, update: () => undefined };
  }
  const long = variant === "longText";
  const input = context.control(control(context.document, long ? "cds-textarea" : "cds-text-input", long ? "textarea" : "input", "cagr-a2ui-input") as InputElement);
  if (!long) input.setAttribute("type", variant === "number" ? "number" : variant === "obscured" ? "password" : "text");
  const pattern = read(props, "validationRegexp");
  const regex = typeof pattern === "string" ? safeRegExp(pattern, context.warn) : undefined;
  const checks = fieldChecks(context.document, input, () => (regex && input.value !== "" && !regex.test(input.value) ? "The value does not have the expected format." : undefined));
  context.field(checks);
  const current = propsHolder(props);
  listen(node, context, input, ["input", "change"], "value", () => (variant === "number" && input.value !== "" ? Number(input.value) : input.value), checks, current.get);
  return {
    element: labelled(context, input, label, checks),
    update(props) {
      current.set(props);
      const value = readText(props, "value");
      if (input.value !== value) input.value = value;
      checks.update(props);
    },
  };
};

/** A CheckBox: `cds-checkbox`, else a native checkbox in its label; writes `true` or `false`. */
export const paintCheckBox: Painter = (node, props, context) => {
  const carbon = control(context.document, "cds-checkbox", "input", "cagr-a2ui-checkbox") as InputElement;
  const input = context.control(carbon);
  const label = readText(props, "label");
  const checks = fieldChecks(context.document, input);
  context.field(checks);
  const element = create(context.document, "div", "cagr-a2ui-field");
  if (input.localName === "input") {
    input.setAttribute("type", "checkbox");
    const wrapper = create(context.document, "label", "cagr-a2ui-check");
    wrapper.append(input, create(context.document, "span", "", label));
    element.append(wrapper, checks.message);
  } else {
    input.setAttribute("label-text", label);
    input.textContent = label;
    element.append(input, checks.message);
  }
  const current = propsHolder(props);
  listen(node, context, input, ["change", "cds-checkbox-changed"], "value", () => input.checked, checks, current.get);
  return {
    element,
    update(props) {
      current.set(props);
      const checked = read(props, "value") === true;
      if (input.checked !== checked) input.checked = checked;
      checks.update(props);
    },
  };
};

/** A Slider: `cds-slider`, else a native range input, between its `min` (default 0) and `max`; writes a number. */
export const paintSlider: Painter = (node, props, context) => {
  const input = context.control(control(context.document, "cds-slider", "input", "cagr-a2ui-slider") as InputElement);
  if (input.localName === "input") input.setAttribute("type", "range");
  input.setAttribute("min", String(read(props, "min") ?? 0));
  input.setAttribute("max", String(read(props, "max") ?? 100));
  const checks = fieldChecks(context.document, input);
  context.field(checks);
  const current = propsHolder(props);
  listen(node, context, input, ["input", "change", "cds-slider-changed"], "value", () => Number(input.value), checks, current.get);
  return {
    element: labelled(context, input, readText(props, "label"), checks, "label-text"),
    update(props) {
      current.set(props);
      const value = readText(props, "value");
      if (input.value !== value) input.value = value;
      checks.update(props);
    },
  };
};

/**
 * A DateTimeInput: the native date, time or date-and-time input (as
 * `enableDate` and `enableTime` say; a date when neither), styled as a
 * Carbon field, with its `min` and `max`; writes the ISO 8601 text the input
 * gives.
 */
export const paintDateTimeInput: Painter = (node, props, context) => {
  const date = read(props, "enableDate") === true;
  const time = read(props, "enableTime") === true;
  const input = context.control(create(context.document, "input", "cagr-a2ui-input") as InputElement);
  input.setAttribute("type", date && time ? "datetime-local" : time ? "time" : "date");
  const checks = fieldChecks(context.document, input);
  context.field(checks);
  const current = propsHolder(props);
  listen(node, context, input, ["input", "change"], "value", () => input.value, checks, current.get);
  return {
    element: labelled(context, input, readText(props, "label"), checks),
    update(props) {
      current.set(props);
      for (const bound of ["min", "max"]) {
        const limit = limitOf(read(props, bound), node, context);
        if (limit) input.setAttribute(bound, limit);
        else input.removeAttribute(bound);
      }
      const value = readText(props, "value");
      if (input.value !== value) input.value = value;
      checks.update(props);
    },
  };
};

/**
 * A DateTimeInput's `min` or `max` as text: a literal, or a data binding
 * (the schema's DynamicString), which `@a2ui/web_core` 0.11 hands over
 * unresolved for these two, read from the data here; anything else, none.
 */
function limitOf(value: unknown, node: ComponentNode, context: PaintContext): string | undefined {
  if (typeof value === "string") return value;
  if (!isRecord(value) || typeof value.path !== "string") return undefined;
  const resolved = new DataContext(context.surface, node.dataPath).resolveDynamicValue<unknown>(value as never);
  return typeof resolved === "string" ? resolved : undefined;
}
