import { ConfigurationError, StateBackend } from "delve";
import { describe, expect, it } from "vitest";
import {
  FILESYSTEM_MIDDLEWARE_NAME,
  FS_TOOL_NAMES,
  filesystemMiddleware,
  validateFsToolList,
} from "../../src/filesystem/middleware.js";
import { ScriptedExecBackend, visibleTools, withoutDelete } from "./tools/fs-harness.js";

const READ_FILE_REQUIRED =
  "read_file must be included in tools; it is required by FilesystemMiddleware";

const registered = (middleware: ReturnType<typeof filesystemMiddleware>) =>
  (middleware.tools ?? []).map((t: any) => t.name as string);

const visible = async (middleware: ReturnType<typeof filesystemMiddleware>) =>
  (await visibleTools(middleware)).map((t) => t.name);

/** The error `fn` throws; fails if it does not throw. */
function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a throw");
}

describe("filesystemMiddleware", () => {
  it("by default constructs all eight file tools under its fixed name", () => {
    const middleware = filesystemMiddleware();
    expect(middleware.name).toBe(FILESYSTEM_MIDDLEWARE_NAME);
    expect(registered(middleware)).toEqual([
      "ls",
      "read_file",
      "write_file",
      "edit_file",
      "delete",
      "glob",
      "grep",
      "execute",
    ]);
  });

  it("a whitelist constructs only the listed tools, in the fixed order", () => {
    expect(registered(filesystemMiddleware({ tools: ["grep", "read_file", "ls"] }))).toEqual([
      "ls",
      "read_file",
      "grep",
    ]);
    expect(registered(filesystemMiddleware({ tools: ["read_file"] }))).toEqual(["read_file"]);
    expect(registered(filesystemMiddleware({ tools: ["read_file", "read_file"] }))).toEqual([
      "read_file",
    ]);
  });

  it("a whitelist without read_file throws the exact message", () => {
    const error = thrown(() => filesystemMiddleware({ tools: ["ls", "grep"] }));
    expect(error.message).toBe(READ_FILE_REQUIRED);
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as ConfigurationError).code).toBe("READ_FILE_REQUIRED");
  });

  it("an empty whitelist throws the same message", () => {
    expect(thrown(() => filesystemMiddleware({ tools: [] })).message).toBe(READ_FILE_REQUIRED);
    expect(thrown(() => validateFsToolList([])).message).toBe(READ_FILE_REQUIRED);
  });

  it("an unknown name throws naming it and the valid names", () => {
    const error = thrown(() =>
      filesystemMiddleware({ tools: ["read_file", "task" as any] }),
    ) as ConfigurationError;
    expect(error.message).toBe(
      'Unknown file tool "task" in tools. Valid names: ls, read_file, write_file, edit_file, delete, glob, grep, execute.',
    );
    expect(error.code).toBe("UNKNOWN_FS_TOOL");
    expect(error.details).toEqual({ tool: "task", validNames: [...FS_TOOL_NAMES] });
    // A misspelling is named even when read_file is missing too.
    expect(thrown(() => validateFsToolList(["readFile"])).message).toContain('"readFile"');
  });

  it("with StateBackend execute is registered but filtered from the model request; delete is kept", async () => {
    const middleware = filesystemMiddleware({ backend: new StateBackend() });
    expect(registered(middleware)).toContain("execute");
    const names = await visible(middleware);
    expect(names).not.toContain("execute");
    expect(names).toContain("delete");
    expect(names).toHaveLength(7);
  });

  it("with an executing backend execute reaches the model", async () => {
    const backend = new ScriptedExecBackend(() => ({ output: "", exitCode: 0, truncated: false }));
    expect(await visible(filesystemMiddleware({ backend }))).toEqual([...FS_TOOL_NAMES]);
  });

  it("a backend without delete hides delete and no other", async () => {
    const middleware = filesystemMiddleware({ backend: withoutDelete(new StateBackend()) });
    expect(registered(middleware)).toHaveLength(8);
    expect(await visible(middleware)).toEqual([
      "ls",
      "read_file",
      "write_file",
      "edit_file",
      "glob",
      "grep",
    ]);
  });

  it("the filter leaves tools from other middleware and the user untouched", async () => {
    const middleware = filesystemMiddleware();
    let seen: string[] = [];
    const wrap = middleware.wrapModelCall as any;
    await wrap(
      { tools: [...(middleware.tools as any[]), { name: "get_ticket" }, { name: "task" }] },
      async (request: any) => {
        seen = request.tools.map((t: any) => t.name);
        return {};
      },
    );
    expect(seen).toEqual([
      "ls",
      "read_file",
      "write_file",
      "edit_file",
      "delete",
      "glob",
      "grep",
      "get_ticket",
      "task",
    ]);
  });
});
