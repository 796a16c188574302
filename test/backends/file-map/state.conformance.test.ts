import { StateBackend } from "delve";
import { runBackendConformance } from "../../../src/testing/conformance.js";

runBackendConformance("StateBackend (outside a run)", () => ({ backend: new StateBackend() }));
