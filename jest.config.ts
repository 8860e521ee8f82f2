import type { Config } from "jest";

const config: Config = {
  testEnvironment: "node",
  roots: ["<rootDir>/spec"],
  testMatch: ["**/*.spec.ts"],
  // Type-checking is `npm run typecheck`'s job; ts-jest only transpiles (tsconfig's isolatedModules).
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: { module: "commonjs", moduleResolution: "node10" } }],
    // spec/frameworks: the frameworks' own packages, some ES modules only (see the transform).
    "/examples/frameworks/node_modules/.+\\.[mc]?js$": "<rootDir>/spec/support/esmToCommonJs.js",
  },
  transformIgnorePatterns: ["^(?!.*/examples/frameworks/).*/node_modules/"],
  // Examples import the package by its public name; tests run them against the source.
  moduleNameMapper: { "^carbon-agui-rx$": "<rootDir>/src/index.ts", "^carbon-agui-rx/testing$": "<rootDir>/src/testing/index.ts", "^carbon-agui-rx/tool-client$": "<rootDir>/src/tool-client/index.ts" },
  testTimeout: 15_000,
};

export default config;
