import { SystemMessage } from "@langchain/core/messages";
import { checkVirtualPath } from "../backends/protocol/paths.js";
import { ConfigurationError } from "../errors/configuration-error.js";

/**
 * Which tools a prompt section may name on one model request: a tool must be bound to the
 * request (so tools an inner layer hides are never named) and, when the caller passes
 * `mentions`, allowed by it (for tools hidden by a layer further in, such as profile
 * exclusions).
 *
 * @example
 * const can = toolMentioner(request, options.mentions);
 * const how = can("edit_file") ? " Update them with edit_file." : "";
 */
export function toolMentioner(
  request: { tools?: readonly unknown[] },
  mentions?: (tool: string) => boolean,
): (tool: string) => boolean {
  const bound = new Set((request.tools ?? []).map((t: any) => t?.name).filter(Boolean));
  return (tool) => bound.has(tool) && (mentions ? mentions(tool) : true);
}

/** The request with `text` appended to its system message as a new paragraph. */
export function withSystemText<R extends { systemMessage?: SystemMessage }>(
  request: R,
  text: string,
): R {
  const current = request.systemMessage;
  if (!current) return { ...request, systemMessage: new SystemMessage(text) };
  return { ...request, systemMessage: current.concat(current.text ? `\n\n${text}` : text) };
}

/**
 * Checks a `sources` option (memory files, skill directories): a non-empty list of virtual
 * paths. Returns them normalised ("/skills/" becomes "/skills"), without duplicates.
 */
export function checkSourcePaths(option: string, sources: unknown): string[] {
  if (!Array.isArray(sources) || sources.length === 0) {
    throw new ConfigurationError(
      "INVALID_OPTION",
      `${option} must be a non-empty array of paths such as "/AGENTS.md".`,
    );
  }
  const paths: string[] = [];
  sources.forEach((source, index) => {
    const checked = checkVirtualPath(source);
    if (!checked.ok) {
      throw new ConfigurationError(
        "INVALID_PATH",
        `${option}[${index}] ${JSON.stringify(source)} is not a valid path: ${checked.reason}.`,
        { index, path: source },
      );
    }
    if (!paths.includes(checked.path)) paths.push(checked.path);
  });
  return paths;
}

/**
 * A warning sink that reports each distinct message once: the middleware reload on every
 * model call, and a broken file should not warn on every turn.
 */
export function warnOnce(sink?: (message: string) => void): (message: string) => void {
  const seen = new Set<string>();
  const report = sink ?? ((message: string) => console.warn(`[delve] ${message}`));
  return (message) => {
    if (seen.has(message)) return;
    seen.add(message);
    report(message);
  };
}
