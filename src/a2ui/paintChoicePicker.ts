import type { NodeProps } from "@a2ui/web_core/v0_9";
import { control, create } from "../renderers/controls";
import { fieldChecks } from "./fieldChecks";
import { read, readText, writable, type Painter } from "./paintContext";
import type { InputElement } from "./paintInputs";

/** Beyond this many options, a single choice is a dropdown. */
const DROPDOWN_FROM = 7;

interface Option {
  label: string;
  value: string;
}

function optionsOf(props: NodeProps): Option[] {
  const options = props.options;
  if (!Array.isArray(options)) return [];
  return options.map((option: Record<string, unknown>) => ({ label: readText(option, "label"), value: String(option.value) }));
}

function selectedOf(props: NodeProps): string[] {
  const value = read(props, "value");
  return Array.isArray(value) ? value.map(String) : typeof value === "string" ? [value] : [];
}

let groups = 0;

/**
 * A ChoicePicker, its value a list of the chosen options' values:
 * `multipleSelection` as checkboxes (`cds-checkbox`, else native);
 * `mutuallyExclusive` as a radio group (`cds-radio-button-group`, else
 * native radios), or with more than six options a dropdown (`cds-dropdown`,
 * else a `select`). The options are drawn once, from the first props; the
 * selection follows the data.
 */
export const paintChoicePicker: Painter = (node, props, context) => {
  const { document } = context;
  const multiple = read(props, "variant") === "multipleSelection";
  const options = optionsOf(props);
  const label = readText(props, "label");
  const name = `cagr-a2ui-choice-${++groups}`;
  const registered = (tag: string) => document.defaultView?.customElements?.get(tag) !== undefined;
  let current = props;
  const element = create(document, "div", "cagr-a2ui-field");
  const write = (values: string[]) => {
    const binding = writable(current, "value");
    if (binding) context.write(node, binding, values);
    checks.reveal();
  };

  let group: HTMLElement;
  let select: (values: string[]) => void;
  if (!multiple && options.length >= DROPDOWN_FROM) {
    const dropdown = context.control(control(document, "cds-dropdown", "select", "cagr-a2ui-dropdown") as InputElement);
    for (const option of options) {
      const item = create(document, dropdown.localName === "select" ? "option" : "cds-dropdown-item", "", option.label);
      item.setAttribute("value", option.value);
      dropdown.append(item);
    }
    if (dropdown.localName === "select") dropdown.prepend(create(document, "option", "", ""));
    for (const event of ["change", "cds-dropdown-selected"]) dropdown.addEventListener(event, () => write(dropdown.value ? [dropdown.value] : []));
    group = dropdown;
    select = (values) => {
      const value = values[0] ?? "";
      if (dropdown.value !== value) dropdown.value = value;
    };
  } else if (!multiple && registered("cds-radio-button-group")) {
    const radios = control(document, "cds-radio-button-group", "fieldset", "cagr-a2ui-choices") as InputElement;
    radios.setAttribute("name", name);
    radios.setAttribute("orientation", "vertical");
    for (const option of options) {
      const radio = context.control(create(document, "cds-radio-button", ""));
      radio.setAttribute("value", option.value);
      radio.setAttribute("label-text", option.label);
      radios.append(radio);
    }
    radios.addEventListener("cds-radio-button-group-changed", () => write(radios.value ? [radios.value] : []));
    group = radios;
    select = (values) => {
      const value = values[0] ?? "";
      if (radios.value !== value) radios.value = value;
    };
  } else {
    const boxes = create(document, "fieldset", "cagr-a2ui-choices");
    const carbon = multiple && registered("cds-checkbox");
    const inputs = options.map((option) => {
      const input = context.control(create(document, carbon ? "cds-checkbox" : "input", "") as InputElement);
      if (carbon) {
        input.setAttribute("label-text", option.label);
        input.textContent = option.label;
        boxes.append(input);
      } else {
        input.setAttribute("type", multiple ? "checkbox" : "radio");
        input.setAttribute("name", name);
        const wrapper = create(document, "label", "cagr-a2ui-check");
        wrapper.append(input, create(document, "span", "", option.label));
        boxes.append(wrapper);
      }
      input.dataset.value = option.value;
      return input;
    });
    const chosen = () => inputs.filter((input) => input.checked).map((input) => input.dataset.value ?? "");
    for (const event of ["change", "cds-checkbox-changed"]) boxes.addEventListener(event, () => write(chosen()));
    group = boxes;
    select = (values) => {
      for (const input of inputs) {
        const checked = values.includes(input.dataset.value ?? "");
        if (input.checked !== checked) input.checked = checked;
      }
    };
  }
  if (label) {
    if (group.localName === "fieldset") group.prepend(create(document, "legend", "cagr-a2ui-label-text", label));
    else group.setAttribute(group.localName === "select" ? "aria-label" : group.localName === "cds-dropdown" ? "title-text" : "legend-text", label);
  }
  const checks = fieldChecks(document, group);
  context.field(checks);
  element.append(group, checks.message);
  return {
    element,
    update(props) {
      current = props;
      select(selectedOf(props));
      checks.update(props);
    },
  };
};
