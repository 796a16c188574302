// Bundles the `delve ui` page into dist/ui/page/ (run by `npm run build` after tsc): the
// client as one script, the HTML and CSS copied. No network, no CDN at run time.
import fs from "node:fs";
import { build } from "esbuild";

const out = "dist/ui/page";
fs.mkdirSync(out, { recursive: true });
await build({
  entryPoints: ["src/ui/page/app.ts"],
  bundle: true,
  outfile: `${out}/app.js`,
  format: "iife",
  target: "es2022",
  minify: true,
});
for (const file of ["index.html", "style.css"])
  fs.copyFileSync(`src/ui/page/${file}`, `${out}/${file}`);
