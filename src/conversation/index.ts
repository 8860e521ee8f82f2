export { Conversation, type Activity, type ConversationInit } from "./conversation";
