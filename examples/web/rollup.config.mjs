// Bundles the browser demo into one file. Carbon's web component mounts React inside, so react and react-dom are bundled too.
import commonjs from "@rollup/plugin-commonjs";
import { nodeResolve } from "@rollup/plugin-node-resolve";
import replace from "@rollup/plugin-replace";
import typescript from "@rollup/plugin-typescript";

export default {
  input: "examples/web/main.ts",
  output: { file: "examples/web/dist/page.js", format: "es", inlineDynamicImports: true },
  onwarn: (warning, warn) => (warning.code === "THIS_IS_UNDEFINED" || warning.code === "CIRCULAR_DEPENDENCY" ? undefined : warn(warning)),
  plugins: [
    replace({ preventAssignment: true, values: { "process.env.NODE_ENV": JSON.stringify("production") } }),
    typescript({ tsconfig: "examples/web/tsconfig.json" }),
    nodeResolve({ browser: true, extensions: [".mjs", ".js", ".ts"] }),
    commonjs(),
  ],
};
