import type { NodeProps } from "@a2ui/web_core/v0_9";
import { create } from "../renderers/controls";

/** A field's checks: what fails now, and showing it. */
export interface FieldChecks {
  /** Where the first failing check's message shows (native fields; Carbon's show it themselves). */
  readonly message: HTMLElement;
  /** Takes the field's props: web_core's verdict on its `checks` (`isValid`, `validationErrors`). */
  update(props: NodeProps): void;
  /** The messages of the checks failing now. */
  failing(): string[];
  /** Shows the first failing message from now on (the person edited the field, or tried to send). */
  reveal(): void;
}

/**
 * The checks of a field drawn as `control`: web_core evaluates the agent's
 * `checks`; `extra` adds one of the view's own (a TextField's
 * `validationRegexp`). Nothing shows until the field is revealed; then the
 * first failing message shows under it, and a Carbon control gets `invalid`
 * and `invalid-text`.
 */
export function fieldChecks(document: Document, control: HTMLElement, extra?: () => string | undefined): FieldChecks {
  const message = create(document, "p", "cagr-a2ui-problem");
  message.setAttribute("aria-live", "polite");
  let errors: string[] = [];
  let revealed = false;
  const failing = () => {
    const own = extra?.();
    return own ? [...errors, own] : errors;
  };
  const paint = () => {
    const first = revealed ? failing()[0] : undefined;
    const carbon = control.localName.startsWith("cds-");
    message.textContent = carbon ? "" : (first ?? "");
    if (carbon && first) {
      control.setAttribute("invalid", "");
      control.setAttribute("invalid-text", first);
    } else if (carbon) {
      control.removeAttribute("invalid");
      control.removeAttribute("invalid-text");
    }
  };
  return {
    message,
    update(props) {
      const reported = props.validationErrors;
      errors = Array.isArray(reported) ? reported.map(String) : [];
      paint();
    },
    failing,
    reveal() {
      revealed = true;
      paint();
    },
  };
}
