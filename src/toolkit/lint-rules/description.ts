import { latinWords, mentions, nameTokens, stem, weightedLength } from "./text.js";
import type { LintFinding, ToolRule } from "./types.js";

/** Descriptions shorter than this (CJK characters counting three) say too little. */
export const MIN_DESCRIPTION_LENGTH = 40;

const FILLER = new Set([
  "a",
  "an",
  "the",
  "tool",
  "tools",
  "function",
  "for",
  "to",
  "of",
  "this",
  "that",
  "it",
  "is",
  "and",
  "or",
  "used",
  "use",
  "helper",
  "utility",
  "which",
  "with",
  "by",
]);

/** `vague-description`: missing, too short, or only restating the name. */
export const vagueDescription: ToolRule = (tool) => {
  const text = tool.description.trim();
  const finding = (why: string): LintFinding[] => [
    {
      tool: tool.name,
      rule: "vague-description",
      message: `The description of ${tool.name} ${why}.`,
      fix: "Say what the tool does, when to use it, when not to (and which tool to use instead), what the parameters take and what comes back.",
    },
  ];
  if (!text) return finding("is empty");
  if (weightedLength(text) < MIN_DESCRIPTION_LENGTH) {
    return finding(`is too short to choose by (${JSON.stringify(text)})`);
  }
  const nameStems = new Set(nameTokens(tool.name).map(stem));
  const words = latinWords(text).filter((w) => !FILLER.has(w));
  if (words.length > 0 && !/[\u3400-\u9fff]/.test(text)) {
    if (words.every((w) => nameStems.has(stem(w)))) return finding("only restates its name");
  }
  return [];
};

// Phrases that draw the tool's boundary: when not to use it, or what to use instead.
const BOUNDARY_PATTERNS = [
  /\bnot (for|to|when|if|used|meant|suitable|intended)\b/i,
  /\b(do(es)? not|don't|never) (use|call)\b/i,
  /\binstead\b/i,
  /\bprefer\b/i,
  /\brather than\b/i,
  /\bonly (for|when|if|after|before|to|on|use|call)\b/i,
  /\bunless\b/i,
  /\bavoid\b/i,
  /\b(to|for) [^.;:]{2,60}, (use|call)\b/i,
  /\buse [a-z_]+ (for|to|when|instead)\b/i,
  /何时不|不该|不应|不要|不适用|不用于|改用|而不是|请勿|勿用|仅在|仅用于|仅当|只在|只用于|只能|禁止/,
];

/** `no-when-not`: the description never says when not to use the tool. */
export const noWhenNot: ToolRule = (tool) => {
  const text = tool.description;
  if (!text.trim() || BOUNDARY_PATTERNS.some((p) => p.test(text))) return [];
  return [
    {
      tool: tool.name,
      rule: "no-when-not",
      message: `The description of ${tool.name} never says when not to use it, so the model cannot tell it from its neighbours.`,
      fix: 'Add one sentence drawing the boundary, e.g. "Not for X: use other_tool." or "Only when the user asked to ...".',
    },
  ];
};

// Emphasis words that shout at the model instead of describing.
const EMPHASIS =
  /\b(IMPORTANT|MUST|ALWAYS|NEVER|CRITICAL|REQUIRED|ESSENTIAL|URGENT|WARNING|MANDATORY)\b/g;
const ACRONYMS = new Set([
  "JSON",
  "YAML",
  "HTML",
  "HTTP",
  "HTTPS",
  "UUID",
  "ISO",
  "UTC",
  "CSV",
  "TSV",
  "XML",
  "SQL",
  "REST",
  "GRPC",
  "OAUTH",
  "ASCII",
  "UTF",
  "POSIX",
  "NULL",
  "TODO",
  "README",
]);
const STOPWORDS = new Set([
  "the",
  "and",
  "for",
  "with",
  "from",
  "that",
  "this",
  "are",
  "not",
  "one",
  "use",
  "its",
  "when",
  "any",
  "all",
  "you",
  "your",
  "can",
  "but",
  "has",
  "have",
  "each",
  "per",
]);
// Groups of near-synonyms: naming four of one group is stuffing, not describing.
const SYNONYM_GROUPS: string[][] = [
  ["search", "find", "lookup", "look up", "query", "retrieve", "fetch", "locate", "seek"],
  ["create", "add", "generate", "insert", "produce", "spawn"],
  ["delete", "remove", "erase", "destroy", "drop", "purge", "wipe"],
  ["update", "modify", "change", "edit", "alter", "patch", "amend"],
  ["send", "email", "mail", "notify", "deliver", "dispatch"],
  ["order", "purchase", "buy", "transaction", "sale", "deal", "booking"],
  ["ticket", "case", "incident", "complaint", "problem", "bug"],
  ["customer", "client", "buyer", "shopper", "patron", "consumer"],
  ["查询", "搜索", "查找", "检索", "获取", "查看"],
];

/** `keyword-stuffing`: repeated words, shouting, or strings of synonyms that bait the model. */
export const keywordStuffing: ToolRule = (tool) => {
  const text = tool.description;
  const reasons: string[] = [];
  const emphasis: string[] = text.match(EMPHASIS) ?? [];
  if (emphasis.length >= 2) reasons.push(`emphasis words (${[...new Set(emphasis)].join(", ")})`);
  // A shouted phrase: three or more capitalised words in a row ("USE THIS TOOL").
  const shouted = (text.match(/\b[A-Z]{2,}(?:\s+[A-Z]{2,}){2,}\b/g) ?? []).filter(
    (phrase) => !phrase.split(/\s+/).every((w) => ACRONYMS.has(w)),
  );
  if (shouted.length) reasons.push(`a phrase in capitals (${shouted[0]})`);
  if (/!{2,}/.test(text)) reasons.push("repeated exclamation marks");
  // Naming a parameter documents it: only other words count toward repetition.
  const paramWords = new Set(tool.parameters.flatMap((p) => nameTokens(p.name)).map(stem));
  // Identifiers (get_order, order_id) name things: only prose words count.
  const prose = text.replace(/\b\w+_\w+\b/g, " ");
  const words = latinWords(prose).filter(
    (w) => w.length >= 3 && !STOPWORDS.has(w) && !paramWords.has(stem(w)),
  );
  const counts = new Map<string, number>();
  for (const w of words) counts.set(stem(w), (counts.get(stem(w)) ?? 0) + 1);
  // The tool's own topic words are what stuffing repeats; other words need more repeats.
  const topic = new Set(nameTokens(tool.name).map(stem));
  for (const [word, n] of counts) {
    const least = topic.has(word) ? 4 : 6;
    if (n >= least && n / words.length >= 0.35) reasons.push(`"${word}..." ${n} times`);
  }
  const listed = repeatedInList(prose, topic);
  if (listed && !reasons.some((r) => r.startsWith(`"${listed.word}`))) {
    reasons.push(`a list of ${listed.count} phrases around "${listed.word}..."`);
  }
  const lower = text.toLowerCase();
  for (const group of SYNONYM_GROUPS) {
    const present = group.filter((w) =>
      /^[a-z ]+$/.test(w) ? mentions(lower, w) || mentions(lower, `${w}s`) : lower.includes(w),
    );
    if (present.length >= 4) reasons.push(`synonyms (${present.join(", ")})`);
  }
  if (reasons.length === 0) return [];
  const finding: LintFinding = {
    tool: tool.name,
    rule: "keyword-stuffing",
    message: `The description of ${tool.name} is stuffed: ${reasons.join("; ")}.`,
    fix: "Describe the one action precisely and draw its boundary with a when-not sentence; do not repeat words, shout or list synonyms to attract calls.",
  };
  return [finding];
};

// "order lookup, order details, order status": three or more short list items repeating the
// tool's own topic word (a column list repeating "TEXT" is structure, not bait).
function repeatedInList(
  text: string,
  topic: ReadonlySet<string>,
): { word: string; count: number } | undefined {
  for (const sentence of text.split(/[.!?。！？\n]/)) {
    const items = sentence
      .split(/[,，、/|;；]|\bor\b|\band\b/)
      .map((item) => latinWords(item).filter((w) => w.length >= 3 && !STOPWORDS.has(w)))
      .filter((words) => words.length > 0 && words.length <= 3);
    const counts = new Map<string, number>();
    for (const words of items) {
      for (const word of new Set(words.map(stem))) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
    for (const [word, count] of counts) if (count >= 3 && topic.has(word)) return { word, count };
  }
  return undefined;
}
