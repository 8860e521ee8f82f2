import { addPageStyle } from "./pageStyle";

const STYLE_ID = "cagr-card-styles";

/**
 * The cards' and the versions bar's look, in Carbon's theme tokens (with the white theme's values as
 * fallbacks), added to the page once. The cards live in the chat element's
 * light DOM, slotted into Carbon's shadow tree, so they inherit its tokens.
 */
export function useCardStyles(document: Document): void {
  addPageStyle(document, STYLE_ID, CARD_CSS);
}

const CARD_CSS = `
.cagr-card { display: grid; gap: 0.75rem; padding: 1rem; margin: 0.25rem 0; background: var(--cds-layer-01, #f4f4f4); color: var(--cds-text-primary, #161616); border: 1px solid var(--cds-border-subtle-01, #c6c6c6); font-family: var(--cds-body-01-font-family, "IBM Plex Sans", system-ui, sans-serif); font-size: 0.875rem; line-height: 1.25rem; }
.cagr-card p { margin: 0; }
.cagr-card .cagr-card-message { font-weight: 600; }
.cagr-card .cagr-card-action, .cagr-card .cagr-card-hint, .cagr-card .cagr-card-asked-by { color: var(--cds-text-secondary, #525252); }
.cagr-card .cagr-card-code { margin: 0; padding: 0.75rem 1rem; max-height: 16rem; overflow: auto; background: var(--cds-layer-02, #ffffff); color: var(--cds-text-primary, #161616); font-family: "IBM Plex Mono", ui-monospace, monospace; font-size: 0.75rem; line-height: 1rem; white-space: pre-wrap; overflow-wrap: anywhere; }
.cagr-card .cagr-card-editor { width: 100%; box-sizing: border-box; font-family: "IBM Plex Mono", ui-monospace, monospace; font-size: 0.75rem; }
.cagr-card textarea.cagr-card-editor { padding: 0.5rem 1rem; background: var(--cds-field-02, #ffffff); color: var(--cds-text-primary, #161616); border: 0; border-bottom: 1px solid var(--cds-border-strong-01, #8d8d8d); resize: vertical; }
.cagr-card input.cagr-card-reason { width: 100%; box-sizing: border-box; min-height: 2rem; padding: 0 1rem; font: inherit; background: var(--cds-field-02, #ffffff); color: var(--cds-text-primary, #161616); border: 0; border-bottom: 1px solid var(--cds-border-strong-01, #8d8d8d); }
.cagr-card .cagr-card-buttons { display: flex; flex-wrap: wrap; gap: 0.5rem; }
.cagr-card [hidden] { display: none !important; }
.cagr-card button.cagr-card-button { min-height: 2rem; padding: 0 1rem; border: 1px solid transparent; font: inherit; cursor: pointer; color: var(--cds-text-on-color, #ffffff); background: var(--cds-button-primary, #0f62fe); }
.cagr-card button.cagr-card-button[data-kind="secondary"] { background: var(--cds-button-secondary, #393939); }
.cagr-card button.cagr-card-button[data-kind="ghost"] { background: transparent; color: var(--cds-link-primary, #0f62fe); }
.cagr-card button.cagr-card-button[data-kind="danger-tertiary"] { background: transparent; color: var(--cds-button-danger-secondary, #da1e28); border-color: var(--cds-button-danger-secondary, #da1e28); }
.cagr-card button.cagr-card-button:disabled { cursor: not-allowed; color: var(--cds-text-on-color-disabled, #8d8d8d); background: var(--cds-button-disabled, #c6c6c6); border-color: transparent; }
.cagr-card .cagr-card-problem:empty { display: none; }
.cagr-card .cagr-card-problem { color: var(--cds-text-error, #da1e28); }
.cagr-card .cagr-card-note { color: var(--cds-text-secondary, #525252); }
.cagr-card p.cagr-card-status { color: var(--cds-text-secondary, #525252); }
:is(.cagr-versions, .cagr-question) { display: flex; align-items: center; gap: 0.25rem; margin: 0.25rem 0; color: var(--cds-text-secondary, #525252); font-family: var(--cds-body-01-font-family, "IBM Plex Sans", system-ui, sans-serif); font-size: 0.75rem; line-height: 1rem; }
:is(.cagr-versions, .cagr-question)[hidden], :is(.cagr-versions, .cagr-question) [hidden] { display: none !important; }
:is(.cagr-versions, .cagr-question) .cagr-versions-position { min-width: 2.5rem; text-align: center; font-variant-numeric: tabular-nums; }
:is(.cagr-versions, .cagr-question) button.cagr-versions-button { display: inline-flex; align-items: center; justify-content: center; width: 2rem; height: 2rem; padding: 0; border: 0; background: transparent; color: var(--cds-icon-primary, #161616); cursor: pointer; }
:is(.cagr-versions, .cagr-question) button.cagr-versions-button:hover { background: var(--cds-background-hover, rgba(141, 141, 141, 0.12)); }
:is(.cagr-versions, .cagr-question) button.cagr-versions-button:disabled { color: var(--cds-icon-disabled, rgba(22, 22, 22, 0.25)); cursor: not-allowed; background: transparent; }
.cagr-question { justify-content: flex-end; }
.cagr-question .cagr-question-note { margin-right: 0.25rem; }
`;
