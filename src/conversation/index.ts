export { Conversation, type Activity, type AnswerMessages, type ConversationInit } from "./conversation";
