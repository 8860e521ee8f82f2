import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { nodeResolve } from "@rollup/plugin-node-resolve";
import typescript from "@rollup/plugin-typescript";
import type { Browser } from "playwright-core";
import { rollup } from "rollup";
import { startToolServer, type ToolServer } from "carbon-agui-rx/testing";
import { launchChromium } from "./browser";

/** The page's script: the tool client from source, with rxjs and zod, bundled for the browser. */
async function bundle(): Promise<string> {
  const build = await rollup({
    input: "spec/e2e/toolClientPage.ts",
    onwarn: (warning, warn) => {
      // A type error in the page's sources fails the build rather than scrolling past as a warning.
      if (warning.plugin === "typescript") throw new Error(warning.message);
      if (warning.code !== "THIS_IS_UNDEFINED" && warning.code !== "CIRCULAR_DEPENDENCY") warn(warning);
    },
    plugins: [
      typescript({ tsconfig: false, include: ["spec/e2e/toolClientPage.ts", "src/tool-client/*.ts", "src/internal/*.ts"], compilerOptions: { strict: true, target: "ES2022", module: "ESNext", moduleResolution: "Bundler", lib: ["ES2022", "DOM"], skipLibCheck: true } }),
      nodeResolve({ browser: true }),
    ],
  });
  const { output } = await build.generate({ format: "es", inlineDynamicImports: true });
  await build.close();
  return output[0].code;
}

describe("carbon-agui-rx/tool-client in Chromium", () => {
  let tools: ToolServer;
  let page: Server;
  let browser: Browser;
  let pageUrl: string;

  beforeAll(async () => {
    const script = await bundle();
    tools = await startToolServer();
    page = createServer((request, response) => {
      if (request.url === "/page.js") return response.writeHead(200, { "content-type": "text/javascript" }).end(script);
      response.writeHead(200, { "content-type": "text/html" }).end('<!doctype html><script type="module" src="/page.js"></script>');
    });
    await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
    pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await tools?.close();
    // The page server exists only if setup got that far; close() waits for it otherwise.
    if (page?.listening) await new Promise((resolve) => page.close(resolve));
  });

  it("invokes, decides an approval, reads typed errors, aborts and follows the run's events, across origins", async () => {
    const tab = await browser.newPage();
    try {
      await tab.exposeFunction("endRun", (runId: string) => tools.endRun(runId, { done: true }));
      await tab.goto(pageUrl);
      await tab.waitForFunction("typeof window.toolClientInTheBrowser === 'function'");
      const result = await tab.evaluate(`window.toolClientInTheBrowser(${JSON.stringify(tools.url)}, "browser-run")`);
      expect(result).toEqual({
        sum: 5,
        decided: expect.objectContaining({ status: "ok", result: { sent: true, to: "ops@example.com", cc: "audit@example.com" } }),
        invalid: [{ path: "/a", message: "must be number" }],
        aborted: "TimeoutError",
        events: ["tool.started", "tool.finished", "approval.requested", "approval.decided", "tool.started", "tool.finished", "end"],
        cost: 2,
      });
      // The browser sent its own Origin, got past the CORS preflight, and a random UUID as the key.
      const invoke = tools.requests.find((request) => request.method === "POST" && request.path.endsWith("/tools/add/invoke"));
      expect(invoke?.headers.origin).toBe(pageUrl.slice(0, -1));
      expect(invoke?.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await tab.close();
    }
  });
});
