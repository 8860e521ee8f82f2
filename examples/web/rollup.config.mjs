// Bundles the browser demo pages, one file each: the web-component page, the React page (Carbon's ChatContainer), and
// a page with one A2UI surface and no chat (for the end-to-end specs).
// Carbon's web component mounts React inside, so react and react-dom are bundled in both chat pages.
import commonjs from "@rollup/plugin-commonjs";
import json from "@rollup/plugin-json";
import { nodeResolve } from "@rollup/plugin-node-resolve";
import replace from "@rollup/plugin-replace";
import typescript from "@rollup/plugin-typescript";

const page = (input, file) => ({
  input,
  output: { file, format: "es", inlineDynamicImports: true },
  onwarn: (warning, warn) => {
    // A type error fails the demo build rather than scrolling past as a warning.
    if (warning.plugin === "typescript") throw new Error(warning.message);
    if (warning.code !== "THIS_IS_UNDEFINED" && warning.code !== "CIRCULAR_DEPENDENCY") warn(warning);
  },
  plugins: [
    replace({ preventAssignment: true, values: { "process.env.NODE_ENV": JSON.stringify("production") } }),
    typescript({ tsconfig: "examples/web/tsconfig.json" }),
    nodeResolve({ browser: true, extensions: [".mjs", ".js", ".ts", ".tsx"] }),
    commonjs(),
    // @a2ui/web_core (the A2UI surfaces' model) imports A2UI's JSON schemas.
    json(),
  ],
});

export default [
  page("examples/web/main.ts", "examples/web/dist/page.js"),
  page("examples/web/react.tsx", "examples/web/dist/react.js"),
  // One A2UI surface with Carbon's components and no chat, for the end-to-end specs.
  page("examples/web/surfacePage.ts", "examples/web/dist/surface.js"),
];
