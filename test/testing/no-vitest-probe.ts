// Imported with vitest made unresolvable: delve/testing must load, its model must work, and
// what needs vitest must say so.
import { registerDelveMatchers, runBackendConformance, ScriptedChatModel } from "delve/testing";

const model = new ScriptedChatModel(["hello"]);
const reply = await model.invoke("hi");
const errors: string[] = [];
await registerDelveMatchers().catch((e: Error) => errors.push(e.message));
try {
  runBackendConformance("x", () => ({ backend: {} as never }));
} catch (e) {
  errors.push((e as Error).message);
}
let vitestFound = true;
await import("vitest" as string).catch(() => {
  vitestFound = false;
});
console.log(JSON.stringify({ reply: reply.content, errors, vitestFound }));
