import { StateBackend } from "../../../src/backends/file-map/state.js";
import { runBackendConformance } from "../../../src/testing/conformance.js";

runBackendConformance("StateBackend (outside a run)", () => ({ backend: new StateBackend() }));
