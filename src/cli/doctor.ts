import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DelveError } from "../errors/delve-error.js";
import { loadConfig, projectConfigPath, readConfigFile, userConfigPath } from "../run/config.js";
import { chooseModel } from "../run/model-choice.js";

/**
 * `delve doctor`: what this machine offers a run, one line per fact, each saying what to do
 * when it is not ok. Key values are never printed, only whether a variable is set.
 */

/** One doctor line: whether the fact is fine, and its text (with the fix when not). */
export interface DoctorLine {
  ok: boolean;
  text: string;
}

/** Providers `delve run` picks by key, then others Delve reaches through LangChain. */
const PROVIDERS: readonly { provider: string; pkg: string; keys: string[]; urls: string[] }[] = [
  {
    provider: "anthropic",
    pkg: "@langchain/anthropic",
    keys: ["ANTHROPIC_API_KEY"],
    urls: ["ANTHROPIC_BASE_URL"],
  },
  {
    provider: "openai",
    pkg: "@langchain/openai",
    keys: ["OPENAI_API_KEY"],
    urls: ["OPENAI_BASE_URL"],
  },
  { provider: "google-genai", pkg: "@langchain/google-genai", keys: ["GOOGLE_API_KEY"], urls: [] },
  { provider: "mistralai", pkg: "@langchain/mistralai", keys: ["MISTRAL_API_KEY"], urls: [] },
  { provider: "groq", pkg: "@langchain/groq", keys: ["GROQ_API_KEY"], urls: [] },
  { provider: "xai", pkg: "@langchain/xai", keys: ["XAI_API_KEY"], urls: [] },
  { provider: "deepseek", pkg: "@langchain/deepseek", keys: ["DEEPSEEK_API_KEY"], urls: [] },
  { provider: "ollama", pkg: "@langchain/ollama", keys: [], urls: ["OLLAMA_BASE_URL"] },
];
const ALWAYS_SHOWN = new Set(["anthropic", "openai"]);

/** The version of `pkg` as Delve would import it (searching node_modules upwards), if any. */
export function installedVersion(
  pkg: string,
  from = path.dirname(fileURLToPath(import.meta.url)),
): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    try {
      const text = fs.readFileSync(path.join(dir, "node_modules", pkg, "package.json"), "utf8");
      return String(JSON.parse(text).version ?? "?");
    } catch {}
    if (path.dirname(dir) === dir) return undefined;
  }
}

async function sandboxLine(): Promise<DoctorLine> {
  if (process.platform !== "linux")
    return {
      ok: false,
      text: `sandbox: unavailable, bubblewrap runs on Linux only (this is ${process.platform}). Use --sandbox none: commands then run on this machine unconfined.`,
    };
  const { probeBubblewrap } = await import("../backends/sandbox/bwrap-args.js");
  const probe = probeBubblewrap();
  if (probe.ok)
    return {
      ok: true,
      text: `sandbox: bubblewrap works (${probe.path}); execute runs confined to the workspace, without network.`,
    };
  if (probe.missing)
    return {
      ok: false,
      text: "sandbox: unavailable, bwrap is not on PATH. Install bubblewrap (apt install bubblewrap, dnf install bubblewrap), or run with --sandbox none (commands run unconfined).",
    };
  return {
    ok: false,
    text: `sandbox: unavailable, bwrap cannot start (${probe.detail}). Unprivileged user namespaces are probably off (in a container, or sysctl kernel.unprivileged_userns_clone / kernel.apparmor_restrict_unprivileged_userns); allow them, or run with --sandbox none (commands run unconfined).`,
  };
}

function originOf(value: string): string {
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.host}`;
  } catch {
    return "a value that is not a URL";
  }
}

function providerLines(env: NodeJS.ProcessEnv): DoctorLine[] {
  const lines: DoctorLine[] = [];
  for (const p of PROVIDERS) {
    const version = installedVersion(p.pkg);
    if (!version && !ALWAYS_SHOWN.has(p.provider)) continue;
    const key = p.keys.find((k) => env[k]?.trim());
    const urls = p.urls
      .filter((u) => env[u]?.trim())
      .map((u) => `${u} points to ${originOf(env[u]!)}`);
    const facts = [version ? `${p.pkg} ${version}` : `${p.pkg} not installed`];
    if (p.keys.length) facts.push(key ? `${key} set` : `${p.keys.join(" or ")} not set`);
    facts.push(...urls);
    const fixes: string[] = [];
    if (!version) fixes.push(`npm install ${p.pkg}`);
    if (p.keys.length && !key) fixes.push(`set ${p.keys[0]} to use ${p.provider}:* models`);
    const ok = Boolean(version) && (p.keys.length === 0 || Boolean(key));
    lines.push({
      ok,
      text: `${p.provider}: ${facts.join(", ")}.${fixes.length ? ` To use it: ${fixes.join(" and ")}.` : ""}`,
    });
  }
  return lines;
}

function modelLine(cwd: string, env: NodeJS.ProcessEnv): DoctorLine {
  try {
    const { config } = loadConfig({ cwd, env });
    const { model, source } = chooseModel({ env, config });
    return { ok: true, text: `model: delve run would use ${model} (${source}).` };
  } catch (error) {
    // A bad config file has a line of its own; here only the missing model matters.
    if (DelveError.isInstance(error) && error.code === "INVALID_CONFIG")
      return { ok: false, text: "model: cannot tell until the config file below is fixed." };
    return { ok: false, text: `model: ${(error as Error).message}` };
  }
}

function configLines(cwd: string, env: NodeJS.ProcessEnv): DoctorLine[] {
  const lines: DoctorLine[] = [];
  for (const file of [userConfigPath(env), projectConfigPath(cwd)]) {
    if (!fs.existsSync(file)) continue;
    try {
      readConfigFile(file);
      lines.push({ ok: true, text: `config: ${file} is valid.` });
    } catch (error) {
      lines.push({ ok: false, text: `config: ${(error as Error).message}` });
    }
  }
  if (lines.length === 0)
    lines.push({
      ok: true,
      text: `config: none (optional: ${projectConfigPath(cwd)} or ${userConfigPath(env)}).`,
    });
  return lines;
}

async function threadsLine(cwd: string): Promise<DoctorLine> {
  const file = path.join(cwd, ".delve", "threads.db");
  if (!fs.existsSync(file))
    return { ok: true, text: `threads: none yet (the first delve run creates ${file}).` };
  try {
    fs.accessSync(file, fs.constants.R_OK | fs.constants.W_OK);
  } catch {
    return {
      ok: false,
      text: `threads: ${file} is not readable and writable by this user. Fix its permissions (chmod u+rw).`,
    };
  }
  let Database: any;
  try {
    Database = (await import("better-sqlite3")).default;
  } catch {
    return {
      ok: false,
      text: "threads: better-sqlite3 is not installed, so threads cannot be kept. Run npm install better-sqlite3.",
    };
  }
  let db: any;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const table = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'delve_threads'")
      .get();
    const count = table
      ? (db.prepare("SELECT COUNT(*) AS n FROM delve_threads").get() as { n: number }).n
      : 0;
    return { ok: true, text: `threads: ${count} in ${file}.` };
  } catch (error) {
    return {
      ok: false,
      text: `threads: ${file} cannot be read as a SQLite database (${(error as Error).message}). Move it away to start afresh; delve run creates a new one.`,
    };
  } finally {
    db?.close();
  }
}

/**
 * The doctor's lines for a workspace: the sandbox, each provider (package, key, endpoint),
 * the model a run would pick, the config files and the threads database.
 */
export async function doctorLines(opts: {
  cwd: string;
  env: NodeJS.ProcessEnv;
}): Promise<{ ok: boolean; text: string }[]> {
  return [
    await sandboxLine(),
    ...providerLines(opts.env),
    modelLine(opts.cwd, opts.env),
    ...configLines(opts.cwd, opts.env),
    await threadsLine(opts.cwd),
  ];
}
