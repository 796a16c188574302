import Database from "better-sqlite3";

/**
 * Creates a small shop database at `path`: customers, orders (status limited by a CHECK
 * constraint, so its tool offers an enum) and products, with comments describing each table
 * and some columns. Returns a writable connection; close it when done.
 *
 * @example
 * createShopDatabase("/tmp/shop.db").close();
 */
export function createShopDatabase(path: string, orderCount = 60): Database.Database {
  const db = new Database(path);
  db.exec(`
    CREATE TABLE customers (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      city TEXT NOT NULL
    );
    CREATE TABLE orders (
      id INTEGER PRIMARY KEY,
      customer_id INTEGER NOT NULL REFERENCES customers(id),
      status TEXT NOT NULL CHECK (status IN ('paid', 'shipped', 'refunded')),
      total REAL NOT NULL,
      placed_on TEXT NOT NULL
    );
    CREATE TABLE products (
      sku TEXT PRIMARY KEY,
      title TEXT NOT NULL,
      price REAL NOT NULL,
      photo BLOB
    );
    CREATE TABLE _comments (table_name TEXT NOT NULL, column_name TEXT, comment TEXT NOT NULL);
    INSERT INTO _comments VALUES
      ('customers', NULL, 'people who have bought from the shop'),
      ('orders', NULL, 'one row per order a customer placed'),
      ('orders', 'customer_id', 'id of the customer in customers'),
      ('orders', 'placed_on', 'ISO date, e.g. 2025-03-01'),
      ('products', NULL, 'the catalogue');
  `);
  const names = ["Ana", "Bo", "Chen", "Dara", "Eli"];
  const insertCustomer = db.prepare("INSERT INTO customers (id, name, city) VALUES (?, ?, ?)");
  for (const [i, name] of names.entries()) {
    insertCustomer.run(i + 1, name, i % 2 ? "Lyon" : "Paris");
  }
  const insertOrder = db.prepare(
    "INSERT INTO orders (id, customer_id, status, total, placed_on) VALUES (?, ?, ?, ?, ?)",
  );
  const statuses = ["paid", "shipped", "refunded"];
  for (let i = 1; i <= orderCount; i++) {
    const day = String((i % 28) + 1).padStart(2, "0");
    insertOrder.run(1000 + i, (i % names.length) + 1, statuses[i % 3], 10 + i, `2025-03-${day}`);
  }
  db.prepare("INSERT INTO products (sku, title, price) VALUES (?, ?, ?)").run("SKU-1", "Mug", 9.5);
  return db;
}
