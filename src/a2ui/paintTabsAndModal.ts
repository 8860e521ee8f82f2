import type { ComponentNode } from "@a2ui/web_core/v0_9";
import { control, create } from "../renderers/controls";
import { childrenPainter } from "./paintChildren";
import { childNodes, readText, type Painter } from "./paintContext";

interface Tab {
  title: string;
  child: ComponentNode | undefined;
}

function tabsOf(tabs: unknown): Tab[] {
  if (!Array.isArray(tabs)) return [];
  return tabs.map((tab: Record<string, unknown>) => ({ title: readText(tab, "title"), child: childNodes(tab, "child")[0] }));
}

/**
 * Tabs: `cds-tabs` with a `cds-tab` per tab (else buttons in a tab list),
 * each tab's child in a panel shown while its tab is selected.
 */
export const paintTabs: Painter = (_node, _props, context) => {
  const { document } = context;
  const element = create(document, "div", "cagr-a2ui-tabs");
  const strip = control(document, "cds-tabs", "div", "cagr-a2ui-tab-list");
  const carbon = strip.localName === "cds-tabs";
  if (!carbon) strip.setAttribute("role", "tablist");
  const panels = create(document, "div", "cagr-a2ui-tab-panels");
  element.append(strip, panels);
  let selected = 0;
  let tabs: Tab[] = [];
  const show = () => {
    Array.from(panels.children).forEach((panel, index) => panel.toggleAttribute("hidden", index !== selected));
    // Carbon's `selected` is a boolean attribute: present selects, whatever its value.
    Array.from(strip.children).forEach((tab, index) => (carbon ? tab.toggleAttribute("selected", index === selected) : tab.setAttribute("aria-selected", String(index === selected))));
  };
  strip.addEventListener("cds-tabs-selected", (event) => {
    selected = Number((event as CustomEvent<{ item?: HTMLElement }>).detail?.item?.getAttribute("value") ?? selected);
    show();
  });
  const drawnPanels = new Map<ComponentNode, HTMLElement>();
  return {
    element,
    update(props) {
      tabs = tabsOf(props.tabs);
      selected = Math.min(selected, Math.max(tabs.length - 1, 0));
      strip.replaceChildren(
        ...tabs.map((tab, index) => {
          const button = context.control(create(document, carbon ? "cds-tab" : "button", "cagr-a2ui-tab", tab.title));
          button.setAttribute("value", String(index));
          if (!carbon) {
            button.setAttribute("type", "button");
            button.setAttribute("role", "tab");
            button.addEventListener("click", () => {
              selected = index;
              show();
            });
          }
          return button;
        }),
      );
      panels.replaceChildren(
        ...tabs.map((tab) => {
          const cached = tab.child && drawnPanels.get(tab.child);
          if (cached) return cached;
          const panel = create(document, "div", "cagr-a2ui-tab-panel");
          panel.setAttribute("role", "tabpanel");
          if (tab.child) {
            childrenPainter(panel, context)([tab.child]);
            drawnPanels.set(tab.child, panel);
          }
          return panel;
        }),
      );
      show();
    },
  };
};

/**
 * A Modal: its trigger drawn in place, and a click on it opens its content
 * in `cds-modal` (else a native `dialog`, with a Close button).
 */
export const paintModal: Painter = (_node, _props, context) => {
  const { document } = context;
  const element = create(document, "div", "cagr-a2ui-modal");
  const trigger = create(document, "span", "cagr-a2ui-modal-trigger");
  const modal = control(document, "cds-modal", "dialog", "cagr-a2ui-dialog");
  const body = create(document, modal.localName === "cds-modal" ? "cds-modal-body" : "div", "cagr-a2ui-dialog-body");
  if (modal.localName === "cds-modal") {
    const header = create(document, "cds-modal-header", "");
    header.append(create(document, "cds-modal-close-button", ""));
    modal.append(header, body);
  } else {
    const close = context.control(create(document, "button", "cagr-a2ui-button", "Close"));
    close.setAttribute("type", "button");
    // A dialog opened with showModal() closes through close(), which also leaves the page's modal state.
    close.addEventListener("click", () => {
      const dialog = modal as HTMLElement & { close?: () => void };
      if (typeof dialog.close === "function") dialog.close();
      else modal.removeAttribute("open");
    });
    modal.append(body, close);
  }
  element.append(trigger, modal);
  trigger.addEventListener("click", () => {
    const dialog = modal as HTMLElement & { showModal?: () => void };
    if (typeof dialog.showModal === "function") dialog.showModal();
    else modal.setAttribute("open", "");
  });
  const paintTrigger = childrenPainter(trigger, context);
  const paintContent = childrenPainter(body, context);
  return {
    element,
    update(props) {
      paintTrigger(childNodes(props, "trigger"));
      paintContent(childNodes(props, "content"));
    },
  };
};
