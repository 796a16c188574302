import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { FilesystemBackend, LocalShellBackend } from "delve";
import { runBackendConformance } from "../../../src/testing/conformance.js";

async function tempRoot() {
  const rootDir = await fs.mkdtemp(path.join(os.tmpdir(), "delve-conformance-"));
  return { rootDir, cleanup: () => fs.rm(rootDir, { recursive: true, force: true }) };
}

runBackendConformance("FilesystemBackend", async () => {
  const { rootDir, cleanup } = await tempRoot();
  return { backend: new FilesystemBackend({ rootDir }), cleanup };
});

runBackendConformance("LocalShellBackend", async () => {
  const { rootDir, cleanup } = await tempRoot();
  return { backend: new LocalShellBackend({ rootDir }), cleanup };
});
