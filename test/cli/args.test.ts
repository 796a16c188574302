import { describe, expect, it } from "vitest";
import { commandHelp, parseCommand, UsageError } from "../../src/cli/args.js";
import { COMMANDS } from "../../src/cli/commands.js";
import { parseEditArgs } from "../../src/cli/edit-args.js";

// The argument layer of `delve`: util.parseArgs plus the checks a user relies on (a mistake is
// a UsageError naming the flag, which main turns into exit 2).

const spec = (name: string) => {
  const found = COMMANDS.find((c) => c.name === name);
  if (!found) throw new Error(`no command ${name}`);
  return found;
};
const parse = (name: string, args: string[]) => parseCommand(spec(name), args);
const mistake = (name: string, args: string[]) => {
  try {
    parse(name, args);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`delve ${name} ${args.join(" ")} parsed without a mistake`);
};

// A value each string flag accepts, for the every-flag sweep.
const SAMPLE: Record<string, string> = {
  output: "json",
  sandbox: "none",
  approval: "edits",
  "max-turns": "3",
  timeout: "1.5",
  "max-cost": "0.25",
  repeat: "2",
  port: "4781",
  to: "2",
};

describe("every command's flags", () => {
  for (const command of COMMANDS) {
    for (const [name, flag] of Object.entries(command.flags)) {
      it(`delve ${command.name} --${name} parses, as --${name} X and --${name}=X`, () => {
        if (flag.type === "boolean") {
          expect(parse(command.name, [`--${name}`]).values[name]).toBe(true);
          if (flag.short) expect(parse(command.name, [`-${flag.short}`]).values[name]).toBe(true);
          expect(mistake(command.name, [`--${name}=yes`])).toContain(`--${name} takes no value`);
          return;
        }
        const value = SAMPLE[name] ?? "some value";
        const expected = flag.multiple ? [value] : value;
        expect(parse(command.name, [`--${name}`, value]).values[name]).toEqual(expected);
        expect(parse(command.name, [`--${name}=${value}`]).values[name]).toEqual(expected);
        expect(mistake(command.name, [`--${name}`])).toContain(`--${name} needs a value`);
      });
    }
    it(`delve ${command.name} --help lists every flag`, () => {
      const help = commandHelp(command);
      for (const name of Object.keys(command.flags)) expect(help).toContain(`--${name}`);
      expect(parse(command.name, ["--help"]).values.help).toBe(true);
    });
  }
});

describe("values", () => {
  it("--flag=value keeps an = and spaces inside the value", () => {
    expect(parse("approve", ["t1", "--reason=a=b c"]).values.reason).toBe("a=b c");
  });

  it("a value that starts with - is taken with --flag=value", () => {
    expect(parse("approve", ["t1", "--reject", "--reason=-not a flag"]).values.reason).toBe(
      "-not a flag",
    );
  });

  it("a negative number for a limit names the flag and the rule, both spellings", () => {
    for (const args of [["--max-turns", "-3"], ["--max-turns=-3"]]) {
      expect(mistake("run", ["task", ...args])).toBe(
        '--max-turns takes a whole number >= 1; got "-3".',
      );
    }
    expect(mistake("run", ["--max-cost", "-0.5"])).toBe(
      '--max-cost takes a number > 0; got "-0.5".',
    );
    expect(mistake("approve", ["t1", "--timeout", "-1"])).toContain("--timeout takes a number > 0");
  });

  it.each([
    ["max-turns", "0"],
    ["max-turns", "2.5"],
    ["max-turns", "1e3"],
    ["max-turns", "0x10"],
    ["max-turns", " 5"],
    ["max-turns", ""],
    ["timeout", "abc"],
    ["timeout", "Infinity"],
    ["timeout", "NaN"],
    ["timeout", "0"],
    ["max-cost", "1,5"],
    ["max-cost", "$1"],
  ])("--%s %j is a usage error naming the flag", (name, value) => {
    expect(mistake("run", ["task", `--${name}=${value}`])).toMatch(
      new RegExp(`^--${name} takes a (whole number >= 1|number > 0); got`),
    );
  });

  it("good limits parse: whole turns, decimal seconds and dollars", () => {
    const { values } = parse("run", ["t", "--max-turns", "12", "--timeout", "0.5", "--max-cost=2"]);
    expect(values).toMatchObject({ "max-turns": "12", timeout: "0.5", "max-cost": "2" });
  });

  it("a choice outside the list names the choices and the nearest one", () => {
    expect(mistake("run", ["--sandbox", "bwarp"])).toBe(
      '--sandbox takes auto, bwrap, none; got "bwarp" (did you mean bwrap?).',
    );
    expect(mistake("run", ["--output=stream_json"])).toContain("did you mean stream-json?");
  });
});

describe("flags and positionals", () => {
  it("-- ends the flags: what follows is the task, even when it looks like a flag", () => {
    expect(parse("run", ["--model", "openai:m", "--", "--max-turns 3"]).positionals).toEqual([
      "--max-turns 3",
    ]);
  });

  it("a task that starts with - says to put it after --", () => {
    const message = mistake("run", ["-fix the test"]);
    expect(message).toContain("unknown flag -f");
    expect(message).toContain('delve run -- "-fix the test"');
    expect(parse("run", ["--", "-fix the test"]).positionals).toEqual(["-fix the test"]);
  });

  it("a string flag given twice is a mistake, not a silent last-wins", () => {
    expect(mistake("run", ["--model", "a:b", "--model=c:d"])).toBe(
      "--model is given twice; give it once.",
    );
    expect(mistake("approve", ["t", "--call", "1", "--call", "2"])).toContain("--call");
  });

  it("a repeatable flag collects every value", () => {
    expect(parse("eval", ["m.ts", "--only", "a", "--only=b"]).values.only).toEqual(["a", "b"]);
  });

  it("an unknown flag names itself and the nearest valid flag", () => {
    expect(mistake("run", ["--modle", "x"])).toBe(
      "unknown flag --modle for delve run; did you mean --model. Run delve run --help.",
    );
    expect(mistake("threads", ["list", "--jsno"])).toContain("did you mean --json");
    expect(mistake("approve", ["t", "--rejct"])).toContain("did you mean --reject");
    expect(mistake("eval", ["m.ts", "--replya", "c.json"])).toContain("did you mean --replay");
  });

  it("one positional too many says to quote the task", () => {
    expect(mistake("run", ["fix", "the", "test"])).toContain('unexpected argument "the"');
    expect(mistake("run", ["fix", "the"])).toContain("quote a task that has spaces");
    expect(mistake("pending", ["extra"])).toContain('unexpected argument "extra"');
  });
});

describe("parseEditArgs", () => {
  it("takes a JSON object of arguments", () => {
    expect(parseEditArgs('{"command":"ls","n":[1,{"a":2}]}')).toEqual({
      command: "ls",
      n: [1, { a: 2 }],
    });
  });

  it.each(["[1,2]", '"ls"', "null", "3", "{bad", ""])("refuses %j", (text) => {
    expect(() => parseEditArgs(text)).toThrow(UsageError);
    expect(() => parseEditArgs(text)).toThrow(/--edit/);
  });
});
