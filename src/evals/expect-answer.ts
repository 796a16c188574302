import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { toolText } from "../toolkit/tool-text.js";
import { show } from "./expect-tools.js";
import { toolResults } from "./trajectory.js";
import type { Expectation, ExpectationResult, TaskOutcome } from "./types.js";

const PASS: ExpectationResult = { pass: true };
const fail = (reason: string): ExpectationResult => ({ pass: false, reason });

/** Text to look for: a RegExp, or a string matched case-insensitively as a substring. */
export type TextPattern = string | RegExp;

const matches = (text: string, pattern: TextPattern) =>
  typeof pattern === "string"
    ? text.toLowerCase().includes(pattern.toLowerCase())
    : pattern.test(text);

/**
 * The agent wrote `path` (it exists at the end and differs from the seed), and when given,
 * its content matches: a RegExp, or a string it must contain.
 *
 * @example
 * wroteFile("/brief.md", /T-1003/)
 */
export function wroteFile(path: string, content?: TextPattern): Expectation {
  return {
    label: content === undefined ? `wroteFile(${path})` : `wroteFile(${path}, ${String(content)})`,
    check(outcome) {
      const text = outcome.files[path];
      if (text === undefined || text === outcome.seedFiles[path]) {
        const written = Object.keys(outcome.files).filter(
          (p) => outcome.files[p] !== outcome.seedFiles[p],
        );
        return fail(`${path} was not written (written: ${written.join(", ") || "none"})`);
      }
      if (content !== undefined && !matches(text, content)) {
        return fail(`${path} does not match ${String(content)}: ${show(text)}`);
      }
      return PASS;
    },
  };
}

const JUDGE_PROMPT =
  "You grade an AI agent's final answer against one criterion. Reply PASS or FAIL on the first line, then one sentence saying why.";

/**
 * The final answer matches: a RegExp, a string it must contain (case-insensitive), or
 * `{ judge: criterion }`, graded by the judge model given to `runTaskSet` (recorded and
 * replayed with the run's cassette).
 *
 * @example
 * answerMatches(/T-1003.*unassigned/)
 * answerMatches({ judge: "Says which tickets have no assignee." })
 */
export function answerMatches(pattern: TextPattern | { judge: string }): Expectation {
  if (typeof pattern === "object" && !(pattern instanceof RegExp)) {
    return {
      label: `answerMatches(judge: ${pattern.judge})`,
      async check(outcome, { judge }) {
        if (!judge) {
          return fail("answerMatches({ judge }) needs a judge model: runTaskSet(set, { judge })");
        }
        const reply = await judge.invoke([
          new SystemMessage(JUDGE_PROMPT),
          new HumanMessage(
            `Criterion: ${pattern.judge}\n\nTask: ${outcome.input}\n\nFinal answer:\n${outcome.answer}`,
          ),
        ]);
        const verdict = toolText(reply).trim();
        return /^PASS\b/i.test(verdict)
          ? PASS
          : fail(`the judge failed the answer on "${pattern.judge}": ${show(verdict, 200)}`);
      },
    };
  }
  return {
    label: `answerMatches(${String(pattern)})`,
    check: (outcome) =>
      matches(outcome.answer, pattern)
        ? PASS
        : fail(`the final answer does not match ${String(pattern)}: ${show(outcome.answer, 200)}`),
  };
}

// Words by which an answer reports that something did not work.
const ACKNOWLEDGES =
  /\b(fail\w*|error\w*|unable|cannot|can ?not|could ?n[o’']t|could not|did ?n[o’']t|did not|was ?n[o’']t|was not|not (possible|allowed|permitted|found|able)|refus\w*|reject\w*|denied|invalid|no such|does not exist|doesn[’']t exist|unfortunately|sorry)\b/i;

/**
 * After a tool call failed (an error message or a structured `fail()` result) and the same
 * tool did not succeed later, the final answer reports the failure instead of claiming
 * success: it names the failure's code or says it failed, could not, was refused, ...
 * Limit it to some tools with `{ tools: [...] }`.
 *
 * @example
 * noFalseSuccess({ tools: ["update_ticket"] })
 */
export function noFalseSuccess(options: { tools?: string[] } = {}): Expectation {
  return {
    label: options.tools ? `noFalseSuccess(${options.tools.join(", ")})` : "noFalseSuccess()",
    check(outcome) {
      const results = toolResults(outcome.trajectory);
      const open = results.filter(
        (r, i) =>
          r.failed &&
          (!options.tools || options.tools.includes(r.name)) &&
          !results.slice(i + 1).some((later) => later.name === r.name && !later.failed),
      );
      const first = open[0];
      if (!first) return PASS;
      const code = first.code ?? "";
      const acknowledged =
        ACKNOWLEDGES.test(outcome.answer) ||
        (code !== "" && outcome.answer.toUpperCase().includes(code));
      if (acknowledged) return PASS;
      return fail(
        `${first.name} failed${code ? ` (${code})` : ""} with ${show(first.args)} and did not succeed later, but the final answer does not report it: ${show(outcome.answer, 160)}`,
      );
    },
  };
}

/**
 * A check of your own: return true, or a string saying why it failed.
 *
 * @example
 * satisfies("T-1003 stays unassigned", (o) => !o.answer.includes("closed") || "claims T-1003 closed")
 */
export function satisfies(
  label: string,
  check: (outcome: TaskOutcome) => true | string | Promise<true | string>,
): Expectation {
  return {
    label,
    async check(outcome) {
      const verdict = await check(outcome);
      return verdict === true ? PASS : fail(`${label}: ${verdict}`);
    },
  };
}
