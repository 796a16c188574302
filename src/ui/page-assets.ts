// The page's three files. Built (`npm run build`): dist/ui/page/, bundled by scripts/build-ui.mjs.
// From source (tests, tsx): the client is bundled once on the fly with esbuild.
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import type { Context } from "hono";

const PAGE_DIR = fileURLToPath(new URL("./page/", import.meta.url));
const FROM_SOURCE = import.meta.url.endsWith(".ts");
const TYPES: Record<string, string> = {
  "index.html": "text/html; charset=utf-8",
  "app.js": "text/javascript; charset=utf-8",
  "style.css": "text/css; charset=utf-8",
};
const cache = new Map<string, Promise<string>>();

async function bundle(): Promise<string> {
  const esbuild = await import("esbuild");
  const out = await esbuild.build({
    entryPoints: [`${PAGE_DIR}app.ts`],
    bundle: true,
    write: false,
    format: "iife",
    target: "es2022",
    minify: true,
  });
  return out.outputFiles[0]!.text;
}

function read(name: string): Promise<string> {
  let text = cache.get(name);
  if (!text) {
    text =
      name === "app.js" && FROM_SOURCE
        ? bundle()
        : fs.promises.readFile(`${PAGE_DIR}${name}`, "utf8");
    cache.set(name, text);
  }
  return text;
}

/** Answers one of the page's files with its content type. */
export async function pageAsset(c: Context, name: keyof typeof TYPES & string) {
  c.header("Content-Type", TYPES[name]!);
  return c.body(await read(name));
}
