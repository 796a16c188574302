import { BackendWrapper, FilesystemBackend, type GuardedCall } from "delve";

class ReadOnlyPolicies extends BackendWrapper {
  protected override async guard(call: GuardedCall) {
    const underPolicies = (p: string) => p === "/policies" || p.startsWith("/policies/");
    if (call.access === "write" && call.paths.some(underPolicies)) {
      return { code: "permission_denied", message: "/policies is read-only" } as const;
    }
    return undefined;
  }
}
export const backend = new ReadOnlyPolicies(new FilesystemBackend({ rootDir: "./workspace" }));
