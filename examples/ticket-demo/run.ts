import { formatTrace, runTicketDemo } from "./demo.js";

// The offline demo: a ticket agent on a scripted chat model (no network, no key).
const { messages, files, surface } = await runTicketDemo();

console.log("== Trace ==");
console.log(formatTrace(messages));
console.log("\n== Final files ==");
for (const [path, file] of Object.entries(files as Record<string, { content: string }>)) {
  console.log(`--- ${path}\n${file.content}`);
}
console.log("== Surface: what the model is handed every turn ==");
console.log(`registered (${surface.registered.length}): ${surface.registered.join(", ")}`);
console.log(`visible    (${surface.visible.length}): ${surface.visible.join(", ")}`);
for (const h of surface.hidden) console.log(`hidden: ${h.name} (${h.reason})`);
for (const t of surface.tools) {
  console.log(
    `  ${t.name.padEnd(12)} ${t.source.padEnd(8)} ${String(t.chars).padStart(5)} chars  ~${t.tokens} tokens`,
  );
}
console.log(
  `total: ${surface.totalChars} chars, ~${surface.totalTokens} tokens; system prompt ${surface.systemPromptChars} chars`,
);
