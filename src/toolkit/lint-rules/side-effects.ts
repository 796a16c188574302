import { nameTokens } from "./text.js";
import type { ToolRule } from "./types.js";

// Leading verbs of tools that only read.
const READ_VERBS = new Set([
  "get",
  "list",
  "search",
  "find",
  "fetch",
  "read",
  "query",
  "lookup",
  "look",
  "check",
  "show",
  "view",
  "describe",
  "count",
  "inspect",
  "browse",
  "preview",
]);
// Leading verbs of tools that change something outside the conversation.
const WRITE_VERBS = new Set([
  "create",
  "update",
  "delete",
  "remove",
  "send",
  "set",
  "cancel",
  "add",
  "post",
  "write",
  "edit",
  "pay",
  "charge",
  "submit",
  "approve",
  "reject",
  "close",
  "reopen",
  "move",
  "rename",
  "insert",
  "publish",
  "reset",
  "assign",
  "refund",
  "transfer",
  "modify",
  "patch",
  "put",
  "upload",
  "archive",
  "mark",
  "grant",
  "revoke",
  "email",
  "notify",
  "book",
  "save",
]);

/**
 * How a tool's name reads by its leading verb, as `undeclared-side-effect` classifies it:
 * `"read"` (get_, list_, search_, ...), `"write"` (update_, delete_, send_, ...), or
 * undefined for any other verb. The evals' `readOnly()` uses it for tools that declare no
 * `metadata.mutates`.
 *
 * @example
 * toolVerbKind("update_ticket") // "write"
 */
export function toolVerbKind(name: string): "read" | "write" | undefined {
  const verb = nameTokens(name)[0] ?? "";
  if (READ_VERBS.has(verb)) return "read";
  if (WRITE_VERBS.has(verb)) return "write";
  return undefined;
}

// "this tool writes/sends ...": third-person write verbs, or "and send ..." chained on a read.
const WRITES_THIRD_PERSON =
  /\b(writes|creates|deletes|removes|updates|modifies|changes|sends|emails|notifies|posts|publishes|charges|cancels|marks|saves|stores|inserts|submits|approves|closes|archives|moves|renames|overwrites|resets|assigns|refunds|transfers|pays)\b/gi;
const WRITES_CHAINED =
  /\b(and|also|then|plus)\s+(send|sends|create|delete|update|modify|change|email|notify|post|write|save|mark|cancel|charge|close|archive)\b/gi;
const WRITES_ZH = /(发送|修改|更新|删除|创建|新建|写入|通知|取消|扣款|标记|变更|提交)/g;
const NEGATION = /\b(not|never|no|without|nor|doesn't|don't|won't|cannot|can't)\b/i;
const NEGATION_ZH = /[不无勿未非别]$/;

// Words that tell the model a tool changes something, in any form.
const SIDE_EFFECT_WORDS =
  /\b(creat|writ|overwrit|replac|updat|modif|chang|delet|remov|eras|send|sent|email|notif|post|publish|charg|pay|paid|refund|cancel|set|sav|stor|insert|submit|approv|reject|clos|reopen|archiv|mov|renam|mark|assign|transfer|grant|revok|upload|book|permanent|irreversibl|idempoten|side effect)\w*/i;
const SIDE_EFFECT_ZH =
  /修改|更新|删除|创建|新建|写入|发送|取消|支付|付款|退款|变更|改为|不可恢复|幂等|提交|通知/;

/**
 * `undeclared-side-effect`: a read-sounding name (get_, list_, search_, ...) whose description
 * says it writes, creates, deletes or sends; or a writing name whose description never says
 * what it changes.
 */
export const undeclaredSideEffect: ToolRule = (tool) => {
  const verb = nameTokens(tool.name)[0] ?? "";
  const text = tool.description;
  if (READ_VERBS.has(verb)) {
    // The tool's own object is a noun here: query_refunds reads "the refunds table".
    const own = new Set(nameTokens(tool.name).map((t) => t.replace(/s$/, "")));
    const writes = affirmedWrites(text).filter((w) => !own.has(w.replace(/s$/, "")));
    if (writes.length === 0) return [];
    return [
      {
        tool: tool.name,
        rule: "undeclared-side-effect",
        message: `${tool.name} sounds read-only but its description says it ${writes.join(", ")}.`,
        fix: "Split the write into its own tool named after it (send_report), or rename the tool after what it really does.",
      },
    ];
  }
  if (WRITE_VERBS.has(verb) && text.trim()) {
    if (SIDE_EFFECT_WORDS.test(text) || SIDE_EFFECT_ZH.test(text)) return [];
    return [
      {
        tool: tool.name,
        rule: "undeclared-side-effect",
        message: `${tool.name} changes something, but its description never says what it changes or whether it can be undone.`,
        fix: "State the effect: what is created, changed, sent or deleted, whether it is permanent, and what a repeat does.",
      },
    ];
  }
  return [];
};

// Write verbs the text affirms (not "does not modify", "不修改").
function affirmedWrites(text: string): string[] {
  const found = new Set<string>();
  for (const pattern of [WRITES_THIRD_PERSON, WRITES_CHAINED]) {
    for (const match of text.matchAll(pattern)) {
      const before = text.slice(Math.max(0, match.index - 30), match.index);
      const lastWords = before.split(/\s+/).slice(-4).join(" ");
      if (!NEGATION.test(lastWords)) found.add(match[0].toLowerCase());
    }
  }
  for (const match of text.matchAll(WRITES_ZH)) {
    const before = text.slice(Math.max(0, match.index - 2), match.index);
    if (!NEGATION_ZH.test(before) && !/[不无勿未非别]/.test(before)) found.add(match[0]);
  }
  return [...found];
}
