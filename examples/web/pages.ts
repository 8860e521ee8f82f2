/** The styles of the web-component page: the chat, and the side panels (state, threads, notices). */
const WEB_STYLE = `html, body { margin: 0; height: 100%; font-family: system-ui, sans-serif; }
  body { display: grid; grid-template-columns: 1fr 16rem; }
  .chat { display: block; height: 100vh; width: 100%; order: 1; }
  .side { order: 2; background: #f4f4f4; overflow: auto; min-width: 0; }
  .state-panel, .threads-panel { padding: 1rem; }
  .state-panel h2, .threads-panel h2 { margin: 0 0 0.5rem; font-size: 0.875rem; font-weight: 600; }
  .notice { margin: 0; padding: 0.75rem 1rem; background: #fcf4d6; border-left: 3px solid #f1c21b; font-size: 0.8rem; }
  .threads { list-style: none; margin: 0.5rem 0 0; padding: 0; font-size: 0.8rem; }
  .threads li { display: flex; gap: 0.25rem; margin-bottom: 0.25rem; }
  .threads .thread { flex: 1; text-align: left; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  .threads .thread[aria-current] { font-weight: 600; }
  .state { margin: 0; font-size: 0.8rem; white-space: pre-wrap; overflow-wrap: anywhere; }`;

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
