import { runBackendConformance } from "delve/testing";
import { MyBackend } from "./fixtures.js";

runBackendConformance("MyBackend", async () => ({ backend: new MyBackend() }));
