import type { Config } from "jest";
import base from "./jest.config";

// The browser tests: real Chromium (Debian's /usr/bin/chromium) driving the demo page with Carbon's web component.
const config: Config = {
  ...base,
  testMatch: ["**/*.e2e.ts"],
  testTimeout: 60_000,
};

export default config;
