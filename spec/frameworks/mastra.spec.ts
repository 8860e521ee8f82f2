import { describeConversations } from "./conversations";

describeConversations("Mastra");
