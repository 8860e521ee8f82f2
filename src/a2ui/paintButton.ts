import { control } from "../renderers/controls";
import { childrenPainter } from "./paintChildren";
import { childNodes, read, type Painter } from "./paintContext";

/** Carbon's button kind for each A2UI button variant. */
const KINDS: Readonly<Record<string, string>> = { primary: "primary", default: "secondary", borderless: "ghost" };

/**
 * A Button: `cds-button` (else a native button) of the kind its variant
 * says, its child (usually a Text) inside. A click goes to the view
 * (`context.press`), which runs its checks and its action.
 */
export const paintButton: Painter = (node, props, context) => {
  const element = context.control(control(context.document, "cds-button", "button", "cagr-a2ui-button"));
  const kind = KINDS[String(read(props, "variant") ?? "default")] ?? "secondary";
  element.setAttribute("kind", kind);
  element.dataset.kind = kind;
  if (element.localName === "button") element.setAttribute("type", "button");
  else element.setAttribute("size", "md");
  element.addEventListener("click", () => context.press(node));
  const paintChild = childrenPainter(element, context);
  return { element, update: (props) => paintChild(childNodes(props, "child")) };
};
