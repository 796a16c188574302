// The interactive terminal session (`delve`, `delve -c`, `delve --thread ID`): an Ink view over
// the same engine, events and thread store as `delve run`. Every name here is public API.

export { InteractiveController, type Question, type ViewState } from "./controller.js";
export { type InteractiveTerminal, startInteractive } from "./start.js";
