import { control, create } from "../renderers/controls";

/**
 * A Carbon inline notification (`cds-inline-notification`, else a `div`
 * with the same look) of `kind` "warning" or "error": `title`, then each
 * line as plain text. A warning is a status, an error an alert.
 */
export function notice(document: Document, kind: "warning" | "error", title: string, lines: readonly string[] = []): HTMLElement {
  const element = control(document, "cds-inline-notification", "div", "cagr-a2ui-notification");
  element.setAttribute("kind", kind);
  element.dataset.kind = kind;
  element.setAttribute("role", kind === "error" ? "alert" : "status");
  if (element.localName === "div") element.append(create(document, "strong", "cagr-a2ui-notification-title", title));
  else {
    element.setAttribute("title", title);
    element.setAttribute("hide-close-button", "");
    element.setAttribute("low-contrast", "");
  }
  for (const line of lines) element.append(create(document, "p", "cagr-a2ui-notification-line", line));
  return element;
}

/** A loading skeleton: `cds-skeleton-text` lines, else shimmering bars. */
export function skeleton(document: Document): HTMLElement {
  const element = create(document, "div", "cagr-a2ui-skeleton");
  element.setAttribute("aria-hidden", "true");
  for (let line = 0; line < 3; line++) {
    const bar = control(document, "cds-skeleton-text", "div", "cagr-a2ui-shimmer");
    if (bar.localName === "cds-skeleton-text") bar.setAttribute("paragraph", "");
    element.append(bar);
  }
  return element;
}
