import type { BaseStore } from "@langchain/langgraph";
import { isPostgresStore } from "../../langchain-seam/stores.js";

/** Why a namespace breaks LangGraph's rules for labels (a store refuses the rest, some only at search time). */
export function namespaceProblem(namespace: unknown): string | undefined {
  if (!Array.isArray(namespace) || namespace.length === 0) {
    return "namespace(ctx) must return a non-empty array of strings";
  }
  for (const label of namespace) {
    if (typeof label !== "string" || label === "") {
      return `label ${JSON.stringify(label)} is not a non-empty string`;
    }
    const bad = /[.:\0]/.exec(label);
    if (bad) return `label ${JSON.stringify(label)} contains ${JSON.stringify(bad[0])}`;
  }
  if (namespace[0] === "langgraph") return 'the root label "langgraph" is reserved';
  return undefined;
}

/**
 * True for PostgresStore (also inside a run's batching wrapper), which refuses labels holding
 * SQL LIKE wildcards or their escape (`%`, `_`, `\`): ["users", "user_1"] fails there.
 */
export function refusesLikeWildcards(store: BaseStore): boolean {
  return isPostgresStore(store);
}

/** A label as stored on such a store: reversible, unchanged without `~ _ % \` ("user_1" -> "user~5F1"). */
export function escapeLabel(label: string): string {
  return label.replace(/[~_%\\]/g, (c) => `~${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
