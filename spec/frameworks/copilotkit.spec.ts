import { describeConversations } from "./conversations";

describeConversations("CopilotKit");
