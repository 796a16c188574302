import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../../src/errors/index.js";
import { chooseModel } from "../../src/run/model-choice.js";

const keys = { ANTHROPIC_API_KEY: "sk-ant", OPENAI_API_KEY: "sk-oa" };

describe("chooseModel", () => {
  it("takes the flag over DELVE_MODEL over the config over the keys", () => {
    const config = { model: "openai:gpt-4.1" };
    const env = { ...keys, DELVE_MODEL: "anthropic:claude-haiku-4-5" };
    expect(chooseModel({ flag: "openai:o3", env, config })).toEqual({
      model: "openai:o3",
      source: "--model",
    });
    expect(chooseModel({ env, config })).toEqual({
      model: "anthropic:claude-haiku-4-5",
      source: "DELVE_MODEL",
    });
    expect(chooseModel({ env: keys, config })).toEqual({
      model: "openai:gpt-4.1",
      source: "the config",
    });
  });

  it("picks a default from the keys present and says which key", () => {
    expect(chooseModel({ env: keys, config: {} })).toEqual({
      model: "anthropic:claude-sonnet-4-6",
      source: "ANTHROPIC_API_KEY is set",
    });
    expect(chooseModel({ env: { OPENAI_API_KEY: "sk" }, config: {} })).toEqual({
      model: "openai:gpt-5.5",
      source: "OPENAI_API_KEY is set",
    });
  });

  it('takes "human" (you play the model) from the flag, DELVE_MODEL or the config', () => {
    expect(chooseModel({ flag: "human", env: keys, config: {} })).toEqual({
      model: "human",
      source: "--model",
    });
    expect(chooseModel({ env: { DELVE_MODEL: " human " }, config: {} }).model).toBe("human");
    expect(chooseModel({ env: {}, config: { model: "human" } }).model).toBe("human");
    expect(() => chooseModel({ flag: "humans", env: {}, config: {} })).toThrow(/or "human"/);
  });

  it("ignores empty values", () => {
    const env = { DELVE_MODEL: "", ANTHROPIC_API_KEY: "  ", OPENAI_API_KEY: "sk" };
    expect(chooseModel({ flag: "", env, config: {} }).source).toBe("OPENAI_API_KEY is set");
  });

  it("fails with NO_MODEL naming every fix when nothing is set", () => {
    let error: unknown;
    try {
      chooseModel({ env: {}, config: {} });
    } catch (e) {
      error = e;
    }
    expect(ConfigurationError.isInstance(error)).toBe(true);
    const e = error as ConfigurationError;
    expect(e.code).toBe("NO_MODEL");
    for (const fix of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "--model", "DELVE_MODEL"])
      expect(e.message).toContain(fix);
  });

  it.each(["gpt-4o", "openai:", ":gpt-4o", "openai: gpt-4o"])(
    "refuses %j, naming where it came from",
    (model) => {
      expect(() => chooseModel({ flag: model, env: {}, config: {} })).toThrow(
        /--model must be written "provider:model"/,
      );
      expect(() => chooseModel({ env: { DELVE_MODEL: model }, config: {} })).toThrow(
        /from DELVE_MODEL/,
      );
    },
  );
});
