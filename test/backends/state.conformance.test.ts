import { StateBackend } from "../../src/backends/state.js";
import { runBackendConformance } from "../../src/testing/conformance.js";

runBackendConformance("StateBackend (outside a run)", () => ({ backend: new StateBackend() }));
