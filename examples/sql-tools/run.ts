import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { createDeepAgent, inspectSurface, lintTools, ScriptedChatModel } from "delve";
import { createShopDatabase } from "./shop-db.js";
import { createTableTools } from "./table-tools.js";

// Generates one query tool per table of a small shop database, lints them, shows what they
// cost per turn, runs one query, then regenerates after a migration.
const dir = mkdtempSync(join(tmpdir(), "delve-sql-tools-"));
const writer = createShopDatabase(join(dir, "shop.db"));
const reader = new Database(join(dir, "shop.db"), { readonly: true });
try {
  const catalog = createTableTools(reader, { maxTables: 5 });
  console.log("lint findings:", lintTools(catalog.tools).length);
  const agent = createDeepAgent({ model: new ScriptedChatModel([]), tools: catalog.tools });
  for (const t of (await inspectSurface(agent)).tools.filter((t) => t.source === "user")) {
    console.log(`${t.name.padEnd(16)} ${t.chars} chars`);
  }
  const orders = catalog.tools.find((t) => t.name === "query_orders")!;
  console.log(JSON.stringify(await orders.invoke({ where: { status: "refunded" }, limit: 3 })));
  writer.exec("CREATE TABLE refunds (id INTEGER PRIMARY KEY, order_id INTEGER, amount REAL)");
  console.log("refreshed:", catalog.refresh(), catalog.tools.map((t) => t.name).join(", "));
} finally {
  reader.close();
  writer.close();
  rmSync(dir, { recursive: true, force: true });
}
