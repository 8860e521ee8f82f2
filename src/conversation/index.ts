export { Conversation, type Activity, type CardAnswer, type ConversationInit } from "./conversation";
