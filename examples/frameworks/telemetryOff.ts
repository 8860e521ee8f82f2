// Imported first by the framework examples: neither CopilotKit nor Mastra (nor Scarf, which CopilotKit brings)
// reports anything from the examples, the demo or the test suite, unless the environment says otherwise.
for (const name of ["COPILOTKIT_TELEMETRY_DISABLED", "MASTRA_TELEMETRY_DISABLED", "DO_NOT_TRACK", "SCARF_ANALYTICS"]) {
  process.env[name] ??= name === "SCARF_ANALYTICS" ? "false" : name === "DO_NOT_TRACK" ? "1" : "true";
}

export {};
