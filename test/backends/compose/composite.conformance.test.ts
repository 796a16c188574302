import { CompositeBackend, InMemoryBackend } from "delve";
import { runBackendConformance } from "../../../src/testing/conformance.js";

runBackendConformance("InMemoryBackend", () => ({ backend: new InMemoryBackend() }));

runBackendConformance(
  "CompositeBackend (in-memory default, in-memory /memories/ route)",
  () => ({
    backend: new CompositeBackend({
      default: new InMemoryBackend(),
      routes: { "/memories/": new InMemoryBackend() },
    }),
  }),
  { rootEntries: ["/memories/"] },
);

// The suite's own paths (/notes/, /big.txt, ...) then all land in the route.
runBackendConformance(
  "CompositeBackend (every test path routed)",
  () => ({
    backend: new CompositeBackend({
      default: new InMemoryBackend(),
      routes: {
        "/notes/": new InMemoryBackend(),
        "/src/": new InMemoryBackend(),
        "/d/": new InMemoryBackend(),
      },
    }),
  }),
  { rootEntries: ["/notes/", "/src/", "/d/"] },
);
