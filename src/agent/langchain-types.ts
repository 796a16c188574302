// The LangChain types Delve's internal structures use, named once. Everything between
// `createDeepAgent` and `createAgent` speaks these, so internal types stay typed.
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { ClientTool, ServerTool } from "@langchain/core/tools";
import type { AgentMiddleware } from "langchain";

/** The model of a stack: a chat model instance (a `"provider:model"` string is wrapped first). */
export type StackModel = BaseChatModel;

/** One middleware of a stack, as `createAgent` takes it. */
export type StackMiddleware = AgentMiddleware;

/** One tool as `createAgent` takes it: a LangChain tool or a provider tool dictionary. */
export type StackTool = ClientTool | ServerTool;
