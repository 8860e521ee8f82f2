import { iconElement, type CarbonIcon } from "./icons";

/** An element of `tag` with `className` (none when empty) and, when given, `text`. */
export function create(document: Document, tag: string, className: string, text?: string): HTMLElement {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}

/** Carbon's web component `tag` when the page has it registered, else the native `fallback`. */
export function control(document: Document, tag: string, fallback: string, className: string): HTMLElement {
  const registered = document.defaultView?.customElements?.get(tag) !== undefined;
  return create(document, registered ? tag : fallback, className);
}

/** A small `cds-button` (else a native button) of Carbon's `kind`, classed `cagr-card-<name>`. */
export function button(document: Document, label: string, name: string, kind: string): HTMLElement & { disabled: boolean } {
  const element = control(document, "cds-button", "button", `cagr-card-button cagr-card-${name}`) as HTMLElement & { disabled: boolean };
  element.textContent = label;
  element.setAttribute(element.localName === "button" ? "type" : "size", element.localName === "button" ? "button" : "sm");
  element.setAttribute("kind", kind);
  element.dataset.kind = kind;
  return element;
}

/** Carbon's small ghost icon button (`cds-icon-button`, its label the tooltip and aria-label), else a native button with the icon and the label. */
export function iconButton(document: Document, icon: CarbonIcon, label: string, className: string): HTMLElement & { disabled: boolean } {
  const button = control(document, "cds-icon-button", "button", className) as HTMLElement & { disabled: boolean };
  button.append(iconElement(document, icon, button.localName === "button" ? undefined : "icon"));
  if (button.localName === "button") {
    button.setAttribute("type", "button");
    button.setAttribute("aria-label", label);
    button.title = label;
  } else {
    for (const [name, value] of Object.entries({ kind: "ghost", size: "sm", align: "top" })) button.setAttribute(name, value);
    const tip = create(document, "span", "", label);
    tip.slot = "tooltip-content";
    button.append(tip);
  }
  return button;
}
