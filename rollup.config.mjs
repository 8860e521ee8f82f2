import typescript from "@rollup/plugin-typescript";
import { dts } from "rollup-plugin-dts";
import { readFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));
// Dependencies, peers and Node built-ins stay imports (subpaths too): the consumer's copy of rxjs is the one we use.
// The testing kit imports the main entry as "carbon-agui-rx", so the two bundles share one copy of it.
const externals = [...Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies }), "carbon-agui-rx"];
const external = (id) => id.startsWith("node:") || externals.some((name) => id === name || id.startsWith(`${name}/`));

const entries = [
  { input: "src/index.ts", name: "index" },
  { input: "src/testing/index.ts", name: "testing" },
  { input: "src/tool-client/index.ts", name: "tool-client" },
  { input: "src/a2ui/index.ts", name: "a2ui" },
  { input: "src/mcp-apps/index.ts", name: "mcp-apps" },
];

/** The sandbox proxy page ships as it is, beside the bundles: `carbon-agui-rx/mcp-apps/sandbox.html`. */
const sandboxPage = {
  name: "mcp-apps-sandbox",
  generateBundle() {
    this.emitFile({ type: "asset", fileName: "mcp-apps/sandbox.html", source: readFileSync(new URL("./src/mcp-apps/sandbox.html", import.meta.url), "utf8") });
  },
};

export default entries.flatMap(({ input, name }) => [
  {
    input,
    external,
    plugins: [typescript({ tsconfig: "./tsconfig.build.json" }), ...(name === "mcp-apps" ? [sandboxPage] : [])],
    output: [
      { file: `dist/${name}.mjs`, format: "es", sourcemap: true },
      { file: `dist/${name}.cjs`, format: "cjs", sourcemap: true },
    ],
  },
  {
    input,
    external,
    plugins: [dts({ tsconfig: "./tsconfig.build.json" })],
    output: [
      { file: `dist/${name}.d.mts`, format: "es" },
      { file: `dist/${name}.d.cts`, format: "es" },
    ],
  },
]);
