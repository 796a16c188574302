// Node loader hook for test/api/entry-loads.test.ts: appends every module URL Node loads to the
// file named by DELVE_LOAD_LOG, one per line (hooks run off the main thread, so a file is the
// simplest channel back).
import { appendFileSync } from "node:fs";
import { register } from "node:module";

if (process.env.DELVE_LOAD_LOG) {
  register(
    `data:text/javascript,${encodeURIComponent(`
      import { appendFileSync } from "node:fs";
      const log = ${JSON.stringify(process.env.DELVE_LOAD_LOG)};
      export async function load(url, context, nextLoad) {
        appendFileSync(log, url + "\\n");
        return nextLoad(url, context);
      }
    `)}`,
  );
  appendFileSync(process.env.DELVE_LOAD_LOG, "");
}
