import type { Config } from "jest";

const config: Config = {
  testEnvironment: "node",
  roots: ["<rootDir>/spec"],
  testMatch: ["**/*.spec.ts"],
  // Type-checking is `npm run typecheck`'s job; ts-jest only transpiles (tsconfig's isolatedModules).
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: { module: "commonjs", moduleResolution: "node10" } }],
    // spec/frameworks: the frameworks' own packages, some ES modules only; the A2UI renderer's @a2ui/web_core and lit, the MCP Apps host bridge (see the transform).
    "/examples/frameworks/node_modules/.+\\.[mc]?js$": "<rootDir>/spec/support/esmToCommonJs.js",
    "/node_modules/(@a2ui|@lit|@lit-labs|lit|lit-html|lit-element|@modelcontextprotocol/ext-apps)/.+\\.[mc]?js$": "<rootDir>/spec/support/esmToCommonJs.js",
  },
  transformIgnorePatterns: ["^(?!.*/examples/frameworks/)(?!.*/node_modules/(@a2ui|@lit|@lit-labs|lit|lit-html|lit-element|@modelcontextprotocol/ext-apps)/).*/node_modules/"],
  // Examples import the package by its public name; tests run them against the source.
  moduleNameMapper: { "^carbon-agui-rx$": "<rootDir>/src/index.ts", "^carbon-agui-rx/testing$": "<rootDir>/src/testing/index.ts", "^carbon-agui-rx/tool-client$": "<rootDir>/src/tool-client/index.ts", "^carbon-agui-rx/a2ui$": "<rootDir>/src/a2ui/index.ts", "^carbon-agui-rx/mcp-apps$": "<rootDir>/src/mcp-apps/index.ts" },
  testTimeout: 15_000,
  // A spec that writes to the console fails (spec/support/quietConsole.ts).
  setupFilesAfterEnv: ["<rootDir>/spec/support/quietConsole.ts"],
};

export default config;
