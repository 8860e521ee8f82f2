import { addPageStyle } from "../renderers/pageStyle";

const STYLE_ID = "cagr-a2ui-styles";

/**
 * The surfaces' look, in Carbon's theme tokens (the white theme's values as
 * fallbacks), added to the page once: it follows the chat's light or dark
 * theme. Carbon's web components style themselves; these rules lay them out
 * and give the native fallbacks Carbon's look.
 */
export function useSurfaceStyles(document: Document): void {
  addPageStyle(document, STYLE_ID, SURFACE_CSS);
}

const SURFACE_CSS = `
.cagr-a2ui { display: grid; gap: var(--cds-spacing-05, 1rem); padding: var(--cds-spacing-05, 1rem); margin: 0.25rem 0; background: var(--cds-layer-01, #f4f4f4); color: var(--cds-text-primary, #161616); border: 1px solid var(--cds-border-subtle-01, #c6c6c6); font-family: var(--cds-body-01-font-family, "IBM Plex Sans", system-ui, sans-serif); font-size: 0.875rem; line-height: 1.25rem; }
.cagr-a2ui [hidden] { display: none !important; }
.cagr-a2ui p, .cagr-a2ui h1, .cagr-a2ui h2, .cagr-a2ui h3, .cagr-a2ui h4, .cagr-a2ui h5 { margin: 0; overflow-wrap: anywhere; white-space: pre-wrap; }
.cagr-a2ui .cagr-a2ui-text-h1 { font-size: 1.75rem; line-height: 2.25rem; font-weight: 400; }
.cagr-a2ui .cagr-a2ui-text-h2 { font-size: 1.25rem; line-height: 1.75rem; font-weight: 400; }
.cagr-a2ui .cagr-a2ui-text-h3 { font-size: 1rem; line-height: 1.5rem; font-weight: 600; }
.cagr-a2ui .cagr-a2ui-text-h4, .cagr-a2ui .cagr-a2ui-text-h5 { font-size: 0.875rem; line-height: 1.25rem; font-weight: 600; }
.cagr-a2ui .cagr-a2ui-text-caption, .cagr-a2ui .cagr-a2ui-note, .cagr-a2ui .cagr-a2ui-status-text { font-size: 0.75rem; line-height: 1rem; color: var(--cds-text-secondary, #525252); }
.cagr-a2ui .cagr-a2ui-flex { display: flex; gap: var(--cds-spacing-05, 1rem); min-width: 0; }
.cagr-a2ui .cagr-a2ui-column, .cagr-a2ui .cagr-a2ui-list { flex-direction: column; }
.cagr-a2ui .cagr-a2ui-row { flex-direction: row; flex-wrap: wrap; }
.cagr-a2ui .cagr-a2ui-list[data-direction="horizontal"] { flex-direction: row; flex-wrap: wrap; }
.cagr-a2ui .cagr-a2ui-flex[data-justify="center"] { justify-content: center; }
.cagr-a2ui .cagr-a2ui-flex[data-justify="end"] { justify-content: flex-end; }
.cagr-a2ui .cagr-a2ui-flex[data-justify="spaceBetween"] { justify-content: space-between; }
.cagr-a2ui .cagr-a2ui-flex[data-justify="spaceAround"] { justify-content: space-around; }
.cagr-a2ui .cagr-a2ui-flex[data-justify="spaceEvenly"] { justify-content: space-evenly; }
.cagr-a2ui .cagr-a2ui-flex[data-align="start"] { align-items: flex-start; }
.cagr-a2ui .cagr-a2ui-flex[data-align="center"] { align-items: center; }
.cagr-a2ui .cagr-a2ui-flex[data-align="end"] { align-items: flex-end; }
.cagr-a2ui div.cagr-a2ui-card { padding: var(--cds-spacing-05, 1rem); background: var(--cds-layer-02, #ffffff); }
.cagr-a2ui .cagr-a2ui-divider { width: 100%; margin: 0; border: 0; border-top: 1px solid var(--cds-border-subtle-01, #c6c6c6); }
.cagr-a2ui .cagr-a2ui-divider[data-axis="vertical"] { width: 0; align-self: stretch; border-top: 0; border-left: 1px solid var(--cds-border-subtle-01, #c6c6c6); }
.cagr-a2ui .cagr-a2ui-image img { display: block; max-width: 100%; height: auto; }
.cagr-a2ui .cagr-a2ui-image[data-variant="icon"] img, .cagr-a2ui .cagr-a2ui-image[data-variant="avatar"] img { width: 2rem; height: 2rem; }
.cagr-a2ui .cagr-a2ui-image[data-variant="avatar"] img { border-radius: 50%; }
.cagr-a2ui .cagr-a2ui-image-alt, .cagr-a2ui .cagr-a2ui-icon { color: var(--cds-text-secondary, #525252); font-size: 0.75rem; }
.cagr-a2ui video, .cagr-a2ui audio { max-width: 100%; }
.cagr-a2ui .cagr-a2ui-field { display: grid; gap: var(--cds-spacing-02, 0.25rem); }
.cagr-a2ui .cagr-a2ui-label { display: grid; gap: var(--cds-spacing-03, 0.5rem); }
.cagr-a2ui .cagr-a2ui-label-text { font-size: 0.75rem; line-height: 1rem; color: var(--cds-text-secondary, #525252); }
.cagr-a2ui input.cagr-a2ui-input, .cagr-a2ui textarea.cagr-a2ui-input, .cagr-a2ui select.cagr-a2ui-dropdown { box-sizing: border-box; width: 100%; min-height: 2.5rem; padding: 0 var(--cds-spacing-05, 1rem); font: inherit; background: var(--cds-field-02, #ffffff); color: var(--cds-text-primary, #161616); border: 0; border-bottom: 1px solid var(--cds-border-strong-01, #8d8d8d); }
.cagr-a2ui textarea.cagr-a2ui-input { padding: var(--cds-spacing-03, 0.5rem) var(--cds-spacing-05, 1rem); resize: vertical; }
.cagr-a2ui fieldset.cagr-a2ui-choices { display: grid; gap: var(--cds-spacing-03, 0.5rem); margin: 0; padding: 0; border: 0; }
.cagr-a2ui .cagr-a2ui-check { display: flex; gap: var(--cds-spacing-03, 0.5rem); align-items: center; }
.cagr-a2ui .cagr-a2ui-problem { margin: 0; font-size: 0.75rem; color: var(--cds-text-error, #da1e28); }
.cagr-a2ui .cagr-a2ui-problem:empty { display: none; }
.cagr-a2ui button.cagr-a2ui-button { min-height: 2.5rem; padding: 0 var(--cds-spacing-05, 1rem); border: 1px solid transparent; font: inherit; cursor: pointer; color: var(--cds-text-on-color, #ffffff); background: var(--cds-button-secondary, #393939); }
.cagr-a2ui button.cagr-a2ui-button[data-kind="primary"] { background: var(--cds-button-primary, #0f62fe); }
.cagr-a2ui button.cagr-a2ui-button[data-kind="ghost"] { background: transparent; color: var(--cds-link-primary, #0f62fe); }
.cagr-a2ui button.cagr-a2ui-button:disabled { cursor: not-allowed; color: var(--cds-text-on-color-disabled, #8d8d8d); background: var(--cds-button-disabled, #c6c6c6); }
.cagr-a2ui button.cagr-a2ui-button p { color: inherit; }
.cagr-a2ui .cagr-a2ui-tab-list { display: flex; gap: var(--cds-spacing-01, 0.125rem); border-bottom: 1px solid var(--cds-border-subtle-01, #c6c6c6); }
.cagr-a2ui button.cagr-a2ui-tab { padding: var(--cds-spacing-03, 0.5rem) var(--cds-spacing-05, 1rem); font: inherit; background: transparent; color: var(--cds-text-secondary, #525252); border: 0; border-bottom: 2px solid transparent; cursor: pointer; }
.cagr-a2ui button.cagr-a2ui-tab[aria-selected="true"] { color: var(--cds-text-primary, #161616); border-bottom-color: var(--cds-border-interactive, #0f62fe); }
.cagr-a2ui .cagr-a2ui-tab-panel { padding-top: var(--cds-spacing-05, 1rem); }
.cagr-a2ui dialog.cagr-a2ui-dialog { max-width: 40rem; padding: var(--cds-spacing-06, 1.5rem); background: var(--cds-layer-01, #f4f4f4); color: var(--cds-text-primary, #161616); border: 1px solid var(--cds-border-subtle-01, #c6c6c6); }
.cagr-a2ui .cagr-a2ui-notice { padding: var(--cds-spacing-03, 0.5rem) var(--cds-spacing-05, 1rem); border-left: 3px solid var(--cds-support-warning, #f1c21b); background: var(--cds-layer-02, #ffffff); }
.cagr-a2ui div.cagr-a2ui-notification { display: grid; gap: var(--cds-spacing-02, 0.25rem); padding: var(--cds-spacing-03, 0.5rem) var(--cds-spacing-05, 1rem); background: var(--cds-layer-02, #ffffff); border-left: 3px solid var(--cds-support-warning, #f1c21b); }
.cagr-a2ui div.cagr-a2ui-notification[data-kind="error"] { border-left-color: var(--cds-support-error, #da1e28); }
.cagr-a2ui .cagr-a2ui-skeleton { display: grid; gap: var(--cds-spacing-03, 0.5rem); }
.cagr-a2ui div.cagr-a2ui-shimmer { height: 0.875rem; background: linear-gradient(90deg, var(--cds-skeleton-background, #e8e8e8) 25%, var(--cds-skeleton-element, #c6c6c6) 50%, var(--cds-skeleton-background, #e8e8e8) 75%); background-size: 200% 100%; animation: cagr-a2ui-shimmer 1.5s linear infinite; }
.cagr-a2ui div.cagr-a2ui-shimmer:last-child { width: 60%; }
@keyframes cagr-a2ui-shimmer { from { background-position: 200% 0; } to { background-position: -200% 0; } }
@media (prefers-reduced-motion: reduce) { .cagr-a2ui div.cagr-a2ui-shimmer { animation: none; } }
.cagr-a2ui .cagr-a2ui-mode:empty { display: none; }
.cagr-a2ui .cagr-a2ui-mode { display: flex; gap: var(--cds-spacing-03, 0.5rem); align-items: center; color: var(--cds-text-secondary, #525252); }
`;
