import { tool } from "@langchain/core/tools";
import {
  ConfigurationError,
  createDeepAgent,
  LINT_RULES,
  type LintFinding,
  lintTools,
} from "delve";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const run = async () => "done";

/** A Delve tool definition with a JSON schema: the shape most findings are about. */
function def(
  name: string,
  description: string,
  properties: Record<string, unknown> = {},
  required: string[] = Object.keys(properties),
) {
  return { name, description, schema: { type: "object", properties, required }, func: run };
}

// A tool following every rule (seed 004 §2's good search_orders), used as the "good" baseline.
const GOOD_DESCRIPTION =
  "Search the current customer's past orders by keyword. Use it when the user asks about their orders without an order id. Not for a known order id: use get_order. Returns up to limit matches per page with order id, amount and date.";
const goodSearch = tool(run, {
  name: "search_orders",
  description: GOOD_DESCRIPTION,
  schema: z.object({
    query: z.string().describe("A product or shop name fragment, e.g. 'mug'"),
    status: z.enum(["all", "paid", "shipped", "refunded"]).describe("Only orders in this status"),
    page: z.number().int().min(1).describe("1-based page"),
    limit: z.number().int().min(1).max(50).describe("Rows per page, at most 50"),
  }),
});

const rulesOf = (findings: LintFinding[], toolName?: string) =>
  findings.filter((f) => !toolName || f.tool === toolName).map((f) => f.rule);

function expectFlagged(tools: any[], rule: string, param?: string) {
  const findings = lintTools(tools).filter((f) => f.rule === rule);
  expect(findings.length, `${rule} not reported`).toBeGreaterThan(0);
  if (param) expect(findings.map((f) => f.param)).toContain(param);
  for (const f of findings) {
    expect(f.message.length).toBeGreaterThan(10);
    expect(f.fix.length).toBeGreaterThan(10);
  }
}

function expectClean(tools: any[], rule: string) {
  expect(rulesOf(lintTools(tools))).not.toContain(rule);
}

describe("lintTools: a tool following every rule", () => {
  it("has zero findings, whether given as a LangChain tool or a definition", () => {
    expect(lintTools([goodSearch])).toEqual([]);
    const asDefinition = def("search_orders", GOOD_DESCRIPTION, {
      query: { type: "string", description: "A product or shop name fragment" },
      limit: { type: "integer", minimum: 1, maximum: 50, description: "Rows per page" },
    });
    expect(lintTools([asDefinition])).toEqual([]);
  });
});

describe("lintTools: each rule on a bad and a good tool", () => {
  it("vague-name: process_data and manage_order are flagged, get_order_status is not", () => {
    const describe_ = `${GOOD_DESCRIPTION}`;
    expectFlagged([def("process_data", describe_)], "vague-name");
    expectFlagged([def("manage_order", describe_)], "vague-name");
    expectFlagged([def("handleRequest", describe_)], "vague-name");
    expectClean([def("get_order_status", describe_)], "vague-name");
  });

  it("vague-description: too short, empty-ish or restating the name is flagged; a full one is not", () => {
    expectFlagged([def("search_orders", "Search orders.")], "vague-description");
    expectFlagged([def("manage_orders", "订单管理工具。")], "vague-description");
    expectFlagged(
      [def("order_management_tool", "The order management tool for managing orders tools.")],
      "vague-description",
    );
    expectClean([goodSearch], "vague-description");
    expectClean(
      [def("get_incident", "根据编号查询故障工单，返回标题与状态；只读，不修改数据。")],
      "vague-description",
    );
  });

  it("no-when-not: a description with no boundary is flagged; 'Not for ...: use X' or 何时不该用 is not", () => {
    expectFlagged(
      [def("get_order", "Look up one order by its id and return status, amount and items.")],
      "no-when-not",
    );
    expectClean([goodSearch], "no-when-not");
    expectClean(
      [
        def(
          "search_orders",
          "按关键词搜索当前用户的历史订单。何时不该用：已知订单号时直接用 get_order。",
        ),
      ],
      "no-when-not",
    );
    expectClean(
      [
        def(
          "cancel_order",
          "Cancel an order that has not shipped yet. Only when the user asked to cancel it.",
        ),
      ],
      "no-when-not",
    );
  });

  it("keyword-stuffing: shouting, repeated topic words and synonym lists are flagged; plain prose is not", () => {
    expectFlagged(
      [
        def(
          "get_order",
          "IMPORTANT: you MUST ALWAYS call this for any order question. Not for refunds.",
        ),
      ],
      "keyword-stuffing",
    );
    expectFlagged(
      [
        def(
          "get_order",
          "Order tool: order lookup for orders, order details, order status, order history. Not for refunds.",
        ),
      ],
      "keyword-stuffing",
    );
    expectFlagged(
      [
        def(
          "get_order",
          "Search, find, look up, retrieve or fetch an order by id. Not for refunds: use refund_order.",
        ),
      ],
      "keyword-stuffing",
    );
    expectClean([goodSearch], "keyword-stuffing");
    expectClean(
      [
        def(
          "read_document",
          "Read a document as text. PDF, HTML and JSON files are converted first. Not for images.",
        ),
      ],
      "keyword-stuffing",
    );
  });

  it("action-dispatch: manage_order(action, ...) and an enum of actions are flagged; one action per tool is not", () => {
    const manageOrder = def(
      "manage_order",
      GOOD_DESCRIPTION,
      {
        action: { type: "string", description: "What to do" },
        order_id: { type: "string", description: "Order id" },
        status: { type: "string", enum: ["paid", "shipped"] },
        note: { type: "string", description: "A note" },
      },
      ["action", "order_id"],
    );
    expectFlagged([manageOrder], "action-dispatch", "action");
    expectFlagged(
      [
        def("update_order", GOOD_DESCRIPTION, {
          op: { type: "string", enum: ["get", "cancel", "refund"] },
        }),
      ],
      "action-dispatch",
      "op",
    );
    expectFlagged(
      [
        def("order_tool", GOOD_DESCRIPTION, {
          kind: { type: "string", enum: ["create", "delete"] },
        }),
      ],
      "action-dispatch",
      "kind",
    );
    const cancelOrder = def("cancel_order", GOOD_DESCRIPTION, {
      order_id: { type: "string", description: "Order id such as ORD-1001" },
      reason: { type: "string", description: "Why, in the user's words" },
    });
    expectClean([cancelOrder, goodSearch], "action-dispatch");
    // A lone shell command is what the tool runs, not a branch selector.
    expectClean(
      [def("run_command", GOOD_DESCRIPTION, { command: { type: "string" } })],
      "action-dispatch",
    );
  });

  it("catch-all-param: an unexplained data/input/params string, or JSON in a string, is flagged", () => {
    expectFlagged(
      [def("process_data", GOOD_DESCRIPTION, { data: { type: "string" } })],
      "catch-all-param",
      "data",
    );
    expectFlagged(
      [
        def("search_orders", GOOD_DESCRIPTION, {
          conditions: { type: "string", description: "Filters as a JSON object" },
        }),
      ],
      "catch-all-param",
      "conditions",
    );
    expectClean([goodSearch], "catch-all-param");
    // Named in the description ("query 填商品名或店铺名片段") counts as explained.
    expectClean(
      [
        def("search_orders", "按关键词搜索订单。query 填商品名或店铺名片段。", {
          query: { type: "string" },
        }),
      ],
      "catch-all-param",
    );
  });

  it("undescribed-param: a bare free string is flagged; described, named, specific or primary ones are not", () => {
    const bare = def("search_orders", GOOD_DESCRIPTION, {
      term: { type: "string" },
      region: { type: "string" },
    });
    expectFlagged([bare], "undescribed-param", "term");
    expectFlagged([bare], "undescribed-param", "region");
    expectFlagged(
      [
        def("search_orders", GOOD_DESCRIPTION, {
          where: { type: "object", properties: { city: { type: "string" } } },
        }),
      ],
      "undescribed-param",
      "where.city",
    );
    const explained = def("find_orders", `${GOOD_DESCRIPTION} region is a code like cn-BJ.`, {
      order_id: { type: "string" },
      region: { type: "string" },
      term: { type: "string", description: "Words to look for" },
      zone: { type: "string", pattern: "^[A-Z]{2}$" },
    });
    expectClean([explained], "undescribed-param");
    // The one required free string is what the first sentence describes (grep's pattern).
    expectClean(
      [
        def("search_text", "Search files for a literal string. Not for file names: use glob.", {
          pattern: { type: "string" },
        }),
      ],
      "undescribed-param",
    );
  });

  it("string-for-fixed-set: a free-string status or ticket_type is flagged; an enum is not", () => {
    expectFlagged(
      [
        def("list_orders", GOOD_DESCRIPTION, {
          status: { type: "string", description: "paid/shipped" },
        }),
      ],
      "string-for-fixed-set",
      "status",
    );
    expectFlagged(
      [def("create_ticket", GOOD_DESCRIPTION, { ticket_type: { type: "string" } })],
      "string-for-fixed-set",
      "ticket_type",
    );
    expectClean([goodSearch], "string-for-fixed-set");
  });

  it("unbounded-limit: limit or page_size with no maximum (zod int() included) is flagged; max(50) is not", () => {
    expectFlagged(
      [def("list_orders", GOOD_DESCRIPTION, { limit: { type: "integer", minimum: 1 } })],
      "unbounded-limit",
      "limit",
    );
    const zodUnbounded = tool(run, {
      name: "list_orders",
      description: GOOD_DESCRIPTION,
      schema: z.object({ page_size: z.number().int().min(1).describe("Rows per page") }),
    });
    expectFlagged([zodUnbounded], "unbounded-limit", "page_size");
    expectClean([goodSearch], "unbounded-limit");
  });

  it("undeclared-side-effect: a get_ tool that emails, or a send_ tool that never says it sends, is flagged", () => {
    expectFlagged(
      [
        def(
          "get_report",
          "Builds the weekly sales report and emails it to the team. Not for daily figures.",
        ),
      ],
      "undeclared-side-effect",
    );
    expectFlagged(
      [def("get_report", "查询周报表并发送邮件给团队成员。不适用于日报。")],
      "undeclared-side-effect",
    );
    expectFlagged(
      [
        def(
          "send_report",
          "Weekly sales figures per region, as a table of numbers for managers. Not for daily figures.",
        ),
      ],
      "undeclared-side-effect",
    );
    expectClean(
      [
        def(
          "get_incident",
          "Look up one incident by id. Read-only: it never changes the incident. Not for updates.",
        ),
        def("get_incident_zh", "根据编号查询故障工单，只读，不修改数据。"),
        def(
          "send_report",
          "Sends the weekly report by email to the team; repeats send again. Not for daily figures.",
        ),
      ],
      "undeclared-side-effect",
    );
  });

  it("shadows-builtin: a user tool named read_file is flagged, crm_read_file is not", () => {
    expectFlagged([def("read_file", GOOD_DESCRIPTION)], "shadows-builtin");
    expectClean([def("crm_read_file", GOOD_DESCRIPTION)], "shadows-builtin");
  });

  it("surface-budget: a set over budgetChars gets one finding naming the largest tools; under it, none", () => {
    const many = Array.from({ length: 5 }, (_, i) => def(`get_order_${i}`, GOOD_DESCRIPTION));
    const over = lintTools(many, { budgetChars: 500 }).filter((f) => f.rule === "surface-budget");
    expect(over).toHaveLength(1);
    expect(over[0]!.tool).toBe("*");
    expect(over[0]!.message).toMatch(/over the budget of 500; largest: get_order_/);
    expect(rulesOf(lintTools(many))).not.toContain("surface-budget");
  });
});

describe("lintTools on Delve's own tools and agents", () => {
  // Findings against the built-in tools, reported to the lead to fix in the tools' texts.
  // When they are fixed this list must become empty.
  const KNOWN_BUILTIN_FINDINGS: string[] = [];

  it("Delve's own built-in tools pass with zero findings", () => {
    const agent = createDeepAgent({ model: new ScriptedChatModel([]) });
    const registered = (agent as any).graph.nodes.tools.bound.tools as any[];
    expect(registered.length).toBeGreaterThanOrEqual(9);
    const findings = lintTools(agent);
    expect(findings.map((f) => `${f.tool}:${f.rule}`)).toEqual(KNOWN_BUILTIN_FINDINGS);
    // The raw registered list gives the same, plus each built-in "shadowing" itself.
    const raw = lintTools(registered, { ignore: ["shadows-builtin"] });
    expect(raw.map((f) => `${f.tool}:${f.rule}`)).toEqual(KNOWN_BUILTIN_FINDINGS);
  });

  it("an agent whose user tool replaces a built-in reports that tool, and lints user tools too", () => {
    const warn = console.warn;
    console.warn = () => {};
    try {
      const agent = createDeepAgent({
        model: new ScriptedChatModel([]),
        tools: [def("grep", "Search."), goodSearch],
      });
      const findings = lintTools(agent).filter((f) => f.tool === "grep");
      expect(rulesOf(findings)).toEqual(
        expect.arrayContaining(["shadows-builtin", "vague-description"]),
      );
      expect(lintTools(agent).filter((f) => f.tool === "search_orders")).toEqual([]);
    } finally {
      console.warn = warn;
    }
  });

  it("provider tool dictionaries are skipped by the rules but count toward the budget", () => {
    const provider = { type: "web_search_preview", search_context_size: "x".repeat(600) };
    expect(lintTools([provider])).toEqual([]);
    expect(rulesOf(lintTools([provider], { budgetChars: 100 }))).toEqual(["surface-budget"]);
  });

  it("ignore skips rules, and an unknown rule name or bad budget is a configuration error", () => {
    const bad = def("process_data", "Process data", { data: { type: "string" } });
    const all = rulesOf(lintTools([bad]));
    expect(all).toEqual(
      expect.arrayContaining(["vague-name", "vague-description", "catch-all-param"]),
    );
    const some = rulesOf(lintTools([bad], { ignore: ["vague-name", "catch-all-param"] }));
    expect(some).not.toContain("vague-name");
    expect(some).toContain("vague-description");
    expect(() => lintTools([bad], { ignore: ["vague"] as any })).toThrow(ConfigurationError);
    expect(() => lintTools([bad], { budgetChars: 0 })).toThrow(/budgetChars/);
    expect(LINT_RULES).toHaveLength(12);
  });
});
