import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";
import {
  docPages,
  existsInRepo,
  headingAnchors,
  headingSlug,
  ROOT,
  readDoc,
  relativeLinks,
} from "./markdown.js";

// Pages written on other branches of the same change; a link to one is allowed while it is
// absent and checked like any other once it exists.
const PENDING_PAGES = new Set<string>();

/** The broken relative links of one page, as "target: reason". */
function brokenLinks(page: string): string[] {
  const broken: string[] = [];
  for (const link of relativeLinks(readDoc(page))) {
    const [path = "", anchor] = link.split("#", 2);
    const target = path
      ? relative(ROOT, normalize(join(ROOT, dirname(page), decodeURI(path))))
      : page;
    if (target.startsWith("..")) {
      broken.push(`${link}: leaves the repository`);
    } else if (!existsInRepo(target)) {
      if (!PENDING_PAGES.has(target)) broken.push(`${link}: no such file ${target}`);
    } else if (anchor && target.endsWith(".md") && !headingAnchors(readDoc(target)).has(anchor)) {
      broken.push(`${link}: ${target} has no heading #${anchor}`);
    }
  }
  return broken;
}

describe("links in the README and docs/*.md", () => {
  it.each(docPages())("every relative link of %s reaches a file (and heading)", (page) => {
    expect(brokenLinks(page)).toEqual([]);
  });

  it("the README links a page for each concept folder", () => {
    const links = new Set(relativeLinks(readDoc("README.md")));
    const topics = ["agent", "filesystem", "backends", "stores", "permissions", "approval"];
    topics.push("subagents", "context", "mcp", "toolkit", "profiles", "surface", "testing");
    topics.push("errors", "api");
    expect(topics.filter((t) => !links.has(`docs/${t}.md`))).toEqual([]);
  });
});

describe("the heading anchors the link check relies on", () => {
  it("follow GitHub's slugs", () => {
    expect(headingSlug("`createDeepAgent(options)`")).toBe("createdeepagentoptions");
    expect(headingSlug("Subagents and `task`")).toBe("subagents-and-task");
    expect(headingSlug("MCP servers (`delve/mcp`)")).toBe("mcp-servers-delvemcp");
    expect([...headingAnchors("# A\n\n## Same\n\n```md\n## Hidden\n```\n\n## Same\n")]).toEqual([
      "a",
      "same",
      "same-1",
    ]);
  });
});
