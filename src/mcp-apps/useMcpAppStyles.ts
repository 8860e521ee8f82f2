import { addPageStyle } from "../renderers/pageStyle";

const STYLE_ID = "cagr-mcp-app-styles";

/**
 * The app tiles' look, in Carbon's theme tokens (the white theme's values as
 * fallbacks), added to the page once: a tile on Carbon's first layer with its
 * subtle border (its colors' 1 ms transition is how `watchHostContext` hears a theme switch), the app's frame edge to edge inside it, the tile's notes in
 * helper text, the link question with Carbon's small buttons.
 */
export function useMcpAppStyles(document: Document): void {
  addPageStyle(document, STYLE_ID, MCP_APP_CSS);
}

const MCP_APP_CSS = `
.cagr-mcp-app { display: grid; margin: 0.25rem 0; background: var(--cds-layer-01, #f4f4f4); color: var(--cds-text-primary, #161616); border: 1px solid var(--cds-border-subtle-01, #c6c6c6); font-family: var(--cds-body-01-font-family, "IBM Plex Sans", system-ui, sans-serif); font-size: 0.875rem; line-height: 1.25rem; transition: background-color 1ms linear, color 1ms linear; }
.cagr-mcp-app[hidden], .cagr-mcp-app [hidden] { display: none !important; }
.cagr-mcp-app .cagr-mcp-app-frame { display: block; width: 100%; border: 0; background: transparent; color-scheme: normal; }
.cagr-mcp-app .cagr-mcp-app-status { margin: 0; padding: 0.5rem 1rem; color: var(--cds-text-secondary, #525252); font-size: 0.75rem; line-height: 1rem; }
.cagr-mcp-app .cagr-mcp-app-status:empty { display: none; }
.cagr-mcp-app .cagr-mcp-app-prompt { display: grid; gap: 0.5rem; padding: 0.75rem 1rem; border-top: 1px solid var(--cds-border-subtle-01, #c6c6c6); }
.cagr-mcp-app .cagr-mcp-app-question { margin: 0; }
.cagr-mcp-app .cagr-mcp-app-link { font-family: "IBM Plex Mono", ui-monospace, monospace; font-size: 0.75rem; overflow-wrap: anywhere; }
.cagr-mcp-app .cagr-mcp-app-buttons { display: flex; flex-wrap: wrap; gap: 0.5rem; }
.cagr-mcp-app button.cagr-card-button { min-height: 2rem; padding: 0 1rem; border: 1px solid transparent; font: inherit; cursor: pointer; color: var(--cds-text-on-color, #ffffff); background: var(--cds-button-primary, #0f62fe); }
.cagr-mcp-app button.cagr-card-button[data-kind="ghost"] { background: transparent; color: var(--cds-link-primary, #0f62fe); }
`;
