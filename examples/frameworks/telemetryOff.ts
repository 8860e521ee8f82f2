// Imported first by the framework examples: neither CopilotKit nor Mastra nor LangChain/LangSmith (nor Scarf, which
// CopilotKit brings) reports or traces anything from the examples, the demo or the test suite, unless the environment says otherwise.
const defaults: Record<string, string> = {
  COPILOTKIT_TELEMETRY_DISABLED: "true",
  MASTRA_TELEMETRY_DISABLED: "true",
  DO_NOT_TRACK: "1",
  SCARF_ANALYTICS: "false",
  LANGCHAIN_TRACING_V2: "false",
  LANGCHAIN_TRACING: "false",
  LANGSMITH_TRACING: "false",
  LANGSMITH_TRACING_V2: "false",
  LANGGRAPH_CLI_NO_ANALYTICS: "1",
};
for (const [name, value] of Object.entries(defaults)) process.env[name] ??= value;

export {};
