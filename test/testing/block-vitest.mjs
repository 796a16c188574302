// A loader that makes "vitest" unresolvable, as in an app that does not install it.
import { register } from "node:module";

register(
  "data:text/javascript," +
    encodeURIComponent(`export async function resolve(specifier, context, next) {
  if (specifier === "vitest" || specifier.startsWith("vitest/")) {
    const error = new Error("Cannot find package 'vitest'");
    error.code = "ERR_MODULE_NOT_FOUND";
    throw error;
  }
  return next(specifier, context);
}`),
);
