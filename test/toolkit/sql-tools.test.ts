import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import Database from "better-sqlite3";
import { ConfigurationError, lintTools } from "delve";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createShopDatabase } from "../../examples/sql-tools/shop-db.js";
import { createTableTools, MAX_ROWS } from "../../examples/sql-tools/table-tools.js";

let dir: string;
let path: string;
let writer: Database.Database;
let reader: Database.Database;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "delve-sql-tools-"));
  path = join(dir, "shop.db");
  writer = createShopDatabase(path, 120);
  reader = new Database(path, { readonly: true });
});
afterEach(async () => {
  reader.close();
  writer.close();
  await rm(dir, { recursive: true, force: true });
});

const byName = (tools: any[], name: string) => {
  const found = tools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name} in ${tools.map((t) => t.name).join(", ")}`);
  return found;
};
const parametersOf = (t: any) => (convertToOpenAITool(t) as any).function.parameters;

describe("tools generated from a SQLite schema (seed 004 §6)", () => {
  it("builds one query_<table> tool per user table, skipping SQLite's and the comments table", () => {
    const catalog = createTableTools(reader);
    expect(catalog.tools.map((t) => t.name)).toEqual([
      "query_customers",
      "query_orders",
      "query_products",
    ]);
    expect(catalog.omitted).toEqual([]);
  });

  it("types parameters from the schema: column enums, CHECK values, typed filters, limit capped at 50", () => {
    const orders = byName(createTableTools(reader).tools, "query_orders");
    const p = parametersOf(orders);
    const columns = ["id", "customer_id", "status", "total", "placed_on"];
    expect(p.properties.select.items.enum).toEqual(columns);
    expect(p.properties.order_by.enum).toEqual(columns);
    expect(p.properties.where.properties.id.type).toBe("integer");
    expect(p.properties.where.properties.total.type).toBe("number");
    expect(p.properties.where.properties.status.enum).toEqual(["paid", "shipped", "refunded"]);
    expect(p.properties.where.additionalProperties).toBe(false);
    expect(p.properties.limit.maximum).toBe(MAX_ROWS);
    expect(MAX_ROWS).toBe(50);
    // BLOB columns are neither selectable nor filterable: binary goes by reference.
    const products = parametersOf(byName(createTableTools(reader).tools, "query_products"));
    expect(products.properties.select.items.enum).not.toContain("photo");
  });

  it("describes each table: its purpose from the comments table, every column, and its limits", () => {
    const orders = byName(createTableTools(reader).tools, "query_orders");
    expect(orders.description).toMatch(/^Read rows of the orders table: one row per order/);
    expect(orders.description).toContain("status (TEXT, one of paid, shipped, refunded)");
    expect(orders.description).toContain("customer_id (INTEGER): id of the customer in customers");
    expect(orders.description).toContain("at most 50 rows");
    const custom = createTableTools(reader, { purposes: { orders: "orders of the EU shop" } });
    expect(byName(custom.tools, "query_orders").description).toMatch(
      /orders table: orders of the EU shop\./,
    );
  });

  it("every generated tool passes lintTools with zero findings", () => {
    expect(lintTools(createTableTools(reader).tools)).toEqual([]);
  });

  it("queries with equality filters, chosen columns, sorting and pages with total", async () => {
    const orders = byName(createTableTools(reader).tools, "query_orders");
    const paid = await orders.invoke({
      where: { status: "paid", customer_id: 1 },
      select: ["id", "total"],
      order_by: "total",
      descending: true,
      limit: 5,
    });
    const expected = writer
      .prepare(
        "SELECT id, total FROM orders WHERE status = 'paid' AND customer_id = 1 ORDER BY total DESC",
      )
      .all() as Array<{ id: number; total: number }>;
    expect(paid).toMatchObject({ ok: true, table: "orders", total: expected.length, page: 1 });
    expect(paid.items).toEqual(expected.slice(0, 5));
    const second = await orders.invoke({
      where: { status: "paid", customer_id: 1 },
      select: ["id", "total"],
      order_by: "total",
      descending: true,
      limit: 5,
      page: 2,
    });
    expect(second.items).toEqual(expected.slice(5, 10));
  });

  it("returns at most 50 rows, 20 by default, and refuses a larger limit", async () => {
    const orders = byName(createTableTools(reader).tools, "query_orders");
    const all = await orders.invoke({ limit: 50 });
    expect(all.total).toBe(120);
    expect(all.items).toHaveLength(50);
    expect((await orders.invoke({})).items).toHaveLength(20);
    await expect(orders.invoke({ limit: 500 })).rejects.toThrow(/did not match expected schema/);
  });

  it("a page past the end is a structured OUT_OF_RANGE with the valid range", async () => {
    const orders = byName(createTableTools(reader).tools, "query_orders");
    const past = await orders.invoke({ limit: 50, page: 9 });
    expect(past).toMatchObject({
      ok: false,
      code: "OUT_OF_RANGE",
      hint: "Ask for a page from 1 to 3.",
    });
  });

  it("injection attempts through filter values are inert, and unknown columns never reach SQL", async () => {
    const customers = byName(createTableTools(reader).tools, "query_customers");
    for (const attack of ["x' OR '1'='1", "Ana'; DROP TABLE orders; --", '" OR 1=1 --']) {
      const result = await customers.invoke({ where: { name: attack } });
      expect(result).toMatchObject({ ok: true, total: 0, items: [] });
    }
    expect(writer.prepare("SELECT COUNT(*) AS n FROM orders").get()).toEqual({ n: 120 });
    await expect(customers.invoke({ where: { "name = name OR 1": 1 } })).rejects.toThrow(
      /did not match expected schema/,
    );
    await expect(customers.invoke({ select: ["name, sqlite_version()"] })).rejects.toThrow(
      /did not match expected schema/,
    );
    await expect(customers.invoke({ where: { id: "1 OR 1=1" } })).rejects.toThrow(
      /did not match expected schema/,
    );
  });

  it("a table name that needs quoting is queried safely", async () => {
    writer.exec(
      `CREATE TABLE "odd ""name""" (id INTEGER PRIMARY KEY, label TEXT); INSERT INTO "odd ""name""" VALUES (1, 'a');`,
    );
    const catalog = createTableTools(reader);
    const odd = byName(catalog.tools, "query_odd_name_");
    expect(await odd.invoke({})).toMatchObject({
      ok: true,
      total: 1,
      items: [{ id: 1, label: "a" }],
    });
    expect(lintTools(catalog.tools)).toEqual([]);
  });

  it("caps the number of tables exposed and reports the rest; tables picks which", () => {
    for (let i = 0; i < 9; i++) writer.exec(`CREATE TABLE extra_${i} (id INTEGER PRIMARY KEY)`);
    const capped = createTableTools(reader, { maxTables: 5 });
    expect(capped.tools).toHaveLength(5);
    expect(capped.omitted).toHaveLength(7);
    const chosen = createTableTools(reader, { tables: ["orders", "customers"], maxTables: 1 });
    expect(chosen.tools.map((t) => t.name)).toEqual(["query_orders"]);
    expect(chosen.omitted).toEqual(["customers"]);
    expect(() => createTableTools(reader, { tables: ["nope"] })).toThrow(ConfigurationError);
    expect(() => createTableTools(reader, { maxTables: 0 })).toThrow(/maxTables/);
  });

  it("refresh() rebuilds the tools after ALTER TABLE or a new table, and not otherwise", async () => {
    const catalog = createTableTools(reader);
    const before = catalog.tools;
    expect(catalog.refresh()).toBe(false);
    expect(catalog.tools).toBe(before);
    writer.exec("ALTER TABLE customers ADD COLUMN tier TEXT CHECK (tier IN ('gold', 'silver'))");
    writer.exec("UPDATE customers SET tier = 'gold' WHERE id = 1");
    writer.exec("CREATE TABLE refunds (id INTEGER PRIMARY KEY, order_id INTEGER, amount REAL)");
    expect(catalog.refresh()).toBe(true);
    expect(catalog.tools.map((t) => t.name)).toContain("query_refunds");
    const customers = byName(catalog.tools, "query_customers");
    expect(parametersOf(customers).properties.where.properties.tier.enum).toEqual([
      "gold",
      "silver",
    ]);
    expect(await customers.invoke({ where: { tier: "gold" } })).toMatchObject({ total: 1 });
    expect(lintTools(catalog.tools)).toEqual([]);
  });

  it("a tool built before a column was dropped answers SCHEMA_CHANGED instead of crashing", async () => {
    const catalog = createTableTools(reader);
    const stale = byName(catalog.tools, "query_customers");
    writer.exec("ALTER TABLE customers DROP COLUMN city");
    const result = await stale.invoke({ select: ["city"] });
    expect(result).toMatchObject({ ok: false, code: "SCHEMA_CHANGED" });
    expect(catalog.refresh()).toBe(true);
    expect(
      parametersOf(byName(catalog.tools, "query_customers")).properties.select.items.enum,
    ).toEqual(["id", "name"]);
  });
});
