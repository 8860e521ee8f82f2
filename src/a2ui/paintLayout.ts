import { control, create } from "../renderers/controls";
import { cappedChildren, childrenPainter } from "./paintChildren";
import { childNodes, read, type Painter } from "./paintContext";

/**
 * A Row, Column or List: a flex box of its children (a template's items
 * capped at `templateItems`), spaced with Carbon's spacing tokens; `justify`
 * and `align` (and a List's `direction`) as data attributes the styles read.
 */
export const paintFlex =
  (kind: "row" | "column" | "list"): Painter =>
  (node, _props, context) => {
    const element = create(context.document, "div", `cagr-a2ui-flex cagr-a2ui-${kind}`);
    if (kind === "list") element.setAttribute("role", "list");
    const paintChildren = childrenPainter(element, context);
    return {
      element,
      update(props) {
        for (const key of ["justify", "align", "direction"]) {
          const value = read(props, key);
          if (typeof value === "string") element.dataset[key] = value;
        }
        paintChildren(cappedChildren(node, childNodes(props, "children"), context));
      },
    };
  };

/** A Card: Carbon's tile (`cds-tile`) around its child. */
export const paintCard: Painter = (_node, _props, context) => {
  const element = control(context.document, "cds-tile", "div", "cagr-a2ui-card");
  const paintChild = childrenPainter(element, context);
  return { element, update: (props) => paintChild(childNodes(props, "child")) };
};

/** A Divider: a rule, vertical when its `axis` says so. */
export const paintDivider: Painter = (_node, props, context) => {
  const element = create(context.document, "hr", "cagr-a2ui-divider");
  if (read(props, "axis") === "vertical") element.dataset.axis = "vertical";
  return { element, update: () => undefined };
};
