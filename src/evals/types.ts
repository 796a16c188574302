import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import type { UserAnswer, UserQuestion } from "../ask-user/question.js";

/** The user input of a task: text, or a list of messages (`{ role, content }` or LangChain). */
export type TaskInput = string | Array<BaseMessage | { role: string; content: unknown }>;

/** What a task set's `agent` factory receives besides the model. */
export interface AgentContext {
  /** The task being run. */
  task: EvalTask;
  /** Which run of the task this is (0 to repeat - 1). */
  run: number;
  /** A fresh temporary directory for this run, removed afterwards (databases, disk backends). */
  workdir: string;
  /** `"provider:model"` when known: pass it as `profileKey` so harness profiles apply. */
  modelKey?: string;
}

/** Something `agent.invoke` can be called on: a `createDeepAgent` agent or any LangGraph agent. */
export interface InvokableAgent {
  invoke(input: any, config?: any): Promise<any>;
}

/** The agent under test, built per task run from the (recording or replaying) model. */
export type AgentFactory = (
  model: BaseChatModel,
  context: AgentContext,
) => InvokableAgent | Promise<InvokableAgent>;

/** How the runner answers an approval interrupt: one decision for every gated call, or a function. */
export type ApprovalPolicy =
  | "approve"
  | "reject"
  | ((request: {
      actionRequests: Array<{ name: string; args: Record<string, unknown> }>;
    }) => Array<Record<string, unknown>> | Promise<Array<Record<string, unknown>>>);

/**
 * How the runner answers `ask_user` questions: one answer for every question, a list used in
 * order (one entry per question; a list entry for a multi-select question), or a function.
 */
export type AnswerPolicy =
  | string
  | ReadonlyArray<string | string[]>
  | ((question: UserQuestion) => UserAnswer | string | Promise<UserAnswer | string>);

/** One task of a task set. */
export interface EvalTask {
  /** A stable id: names the task in reports, comparisons and cassettes. */
  id: string;
  /** The user's request. */
  input: TaskInput;
  /** Seed files for the agent's state: path -> text. */
  files?: Record<string, string>;
  /** Runtime context passed to `invoke` (the agent's `contextSchema`). */
  context?: unknown;
  /** How approval interrupts are answered. Default `"approve"`. */
  approvals?: ApprovalPolicy;
  /** How `ask_user` questions are answered. Unset, a question fails the run. */
  answers?: AnswerPolicy;
  /** What must hold after the run; every expectation is checked, all must pass. */
  expect: Expectation[];
}

/** A fixed set of tasks and how to build the agent they test. */
export interface TaskSet {
  name: string;
  agent: AgentFactory;
  tasks: EvalTask[];
  /** Optional: called after each run with its context (close connections, stop servers). */
  cleanup?: (context: AgentContext) => void | Promise<void>;
}

/** A model turn in a trajectory. */
export interface ModelTurn {
  kind: "model";
  /** 1-based model call number within the run. */
  step: number;
  text: string;
  toolCalls: Array<{ id: string; name: string; args: Record<string, unknown> }>;
  usage?: TokenUsage;
  /** USD, when a price is known for the model. */
  cost?: number;
  ms?: number;
  model?: string;
}

/** A tool result in a trajectory. */
export interface ToolResult {
  kind: "tool";
  callId: string;
  name: string;
  args: Record<string, unknown>;
  /** True for an error tool message or a structured `fail()` result. */
  failed: boolean;
  /** The `fail()` code, when the result is structured. */
  code?: string;
  content: string;
}

/** An approval interrupt and how the runner answered it. */
export interface ApprovalEvent {
  kind: "approval";
  /** Tool call ids the request covered. */
  callIds: string[];
  tools: string[];
  decisions: string[];
}

/** An `ask_user` question and the answer the task scripted for it. */
export interface QuestionEvent {
  kind: "question";
  /** The `ask_user` tool call (a subagent's included). */
  callId: string;
  question: string;
  choices?: string[];
  multiSelect: boolean;
  /** What the runner resumed with: one answer, or a list for a multi-select question. */
  answer: string | string[];
}

/** One entry of a trajectory, in the order it happened. */
export type TrajectoryEvent = ModelTurn | ToolResult | ApprovalEvent | QuestionEvent;

/** Token counts reported by the provider for one call (or summed). */
export interface TokenUsage {
  input: number;
  output: number;
  total: number;
}

/** Everything an expectation can look at after a task ran. */
export interface TaskOutcome {
  /** The user's request, as text. */
  input: string;
  trajectory: TrajectoryEvent[];
  /** The last model turn's text. */
  answer: string;
  /** Files in the agent's state at the end: path -> text. */
  files: Record<string, string>;
  /** The seed files: path -> text. */
  seedFiles: Record<string, string>;
  /** Tools the model was handed, by name: whether each mutates (`undefined`: unknown). */
  mutates: Record<string, boolean | undefined>;
}

/** The verdict of one expectation. */
export interface ExpectationResult {
  pass: boolean;
  /** Why it failed, naming the tool, argument or budget. */
  reason?: string;
}

/** What an expectation may use while checking: a judge model, when configured. */
export interface CheckContext {
  judge?: BaseChatModel;
}

/** A check on a task's outcome, built by `calledTool`, `readOnly`, `maxModelCalls`, ... */
export interface Expectation {
  /** A short label: `calledTool(update_ticket)`. */
  readonly label: string;
  check(
    outcome: TaskOutcome,
    context: CheckContext,
  ): ExpectationResult | Promise<ExpectationResult>;
}
