/** Carbon's type family (as Carbon AI Chat sets it): IBM Plex Sans where it is installed, the system's sans-serif otherwise. */
const PLEX_SANS = "'IBM Plex Sans', system-ui, -apple-system, BlinkMacSystemFont, '.SFNSText-Regular', sans-serif";

/**
 * The conversations panel (threadsPanel.ts) in Carbon's look: its tokens (`--cds-*`, the white theme's values where the
 * page sets none, as Carbon's web components fall back), rows as Carbon's side navigation marks its current link (a
 * left border in the interactive color, the layer's selected background), body-compact and label type.
 */
const THREADS_STYLE = `.threads-panel { padding: 1rem 0; }
  .threads-panel h2 { padding: 0 1rem; }
  .threads-panel [hidden] { display: none !important; }
  .threads-new, .threads-earlier { margin: 0 1rem 0.5rem; }
  .threads { list-style: none; margin: 0.5rem 0 0; padding: 0; }
  .thread-row { display: flex; align-items: center; border-left: 3px solid transparent; }
  .thread-row:hover { background: var(--cds-layer-hover-01, #e8e8e8); }
  .thread-row:has(.thread[aria-current]) { background: var(--cds-layer-selected-01, #e0e0e0); border-left-color: var(--cds-border-interactive, #0f62fe); }
  .thread-row:has(.thread[aria-current]):hover { background: var(--cds-layer-selected-hover-01, #d1d1d1); }
  .thread { flex: 1; min-width: 0; display: flex; flex-direction: column; gap: 0.125rem; margin: 0; padding: 0.5rem 0.5rem 0.5rem calc(1rem - 3px); border: 0; background: none; color: inherit; font: inherit; text-align: left; cursor: pointer; }
  .thread:focus-visible { outline: 2px solid var(--cds-focus, #0f62fe); outline-offset: -2px; }
  .thread-title { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-size: 0.875rem; line-height: 1.125rem; letter-spacing: 0.16px; color: var(--cds-text-secondary, #525252); }
  .thread:hover .thread-title, .thread[aria-current] .thread-title { color: var(--cds-text-primary, #161616); }
  .thread[aria-current] .thread-title { font-weight: 600; }
  .thread-time { font-size: 0.75rem; line-height: 1rem; letter-spacing: 0.32px; color: var(--cds-text-helper, #6f6f6f); }
  .thread-delete { flex: none; margin-right: 0.25rem; color: var(--cds-icon-secondary, #525252); }
  @media (hover: hover) { .thread-row:not(:hover, :focus-within, :has(.thread[aria-current])) .thread-delete { opacity: 0; } }
  .threads-panel + .state-panel { border-top: 1px solid var(--cds-border-subtle-01, #c6c6c6); }
  .threads-empty { margin: 0.5rem 0 0; padding: 0 1rem; font-size: 0.875rem; line-height: 1.125rem; letter-spacing: 0.16px; color: var(--cds-text-secondary, #525252); }`;

/** The styles of the web-component page: the chat, and the side panels (state, threads, notices). */
const WEB_STYLE = `html, body { margin: 0; height: 100%; font-family: ${PLEX_SANS}; }
  body { display: grid; grid-template-columns: 1fr 18rem; }
  .chat { display: block; height: 100vh; width: 100%; order: 1; }
  .side { order: 2; background: var(--cds-layer-01, #f4f4f4); color: var(--cds-text-primary, #161616); border-left: 1px solid var(--cds-border-subtle-01, #c6c6c6); overflow: auto; min-width: 0; }
  .state-panel { padding: 1rem; }
  .state-panel h2, .threads-panel h2 { margin: 0 0 0.75rem; font-size: 0.875rem; line-height: 1.125rem; font-weight: 600; letter-spacing: 0.16px; }
  .notice { margin: 0; padding: 0.75rem 1rem; background: #fcf4d6; border-left: 3px solid #f1c21b; font-size: 0.8rem; }
  .state { margin: 0; font-size: 0.8rem; white-space: pre-wrap; overflow-wrap: anywhere; }
  ${THREADS_STYLE}`;

/**
 * A demo page: the web component's (`/page.js`) or the React one's (`/react.js`, Carbon's ChatContainer), with the
 * page's globals (`AGUI_URL`, and any others the demo writes in) set before its script runs.
 */
export function demoPage({ title, react, globals }: { title: string; react: boolean; globals: Record<string, string> }): string {
  const set = Object.entries(globals)
    .map(([name, value]) => `window.${name} = ${JSON.stringify(value)};`)
    .join(" ");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}${react ? " (React)" : ""}</title>
<style>${react ? "html, body, #root { margin: 0; height: 100%; font-family: system-ui, sans-serif; }" : WEB_STYLE}</style>
<script>${set}</script>
</head>
<body>${react ? '<div id="root"></div><script type="module" src="/react.js"></script>' : '<script type="module" src="/page.js"></script>'}</body>
</html>`;
}
