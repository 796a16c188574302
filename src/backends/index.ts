// The backends folder's boundary and the `delve/backend` entry: the backend protocol (types and
// path helper), the backends Delve ships, the bases for writing one (`BaseSandbox`,
// `BackendWrapper`) and the permission decisions a backend that enforces rules needs. Every
// name here is public API; the package root re-exports all of it. Loads no agent code.

export {
  canRead,
  type DeleteDecision,
  decide,
  decideDelete,
  type FileOperation,
  literalRuleTargets,
  type PermissionDecision,
  type PermissionMode,
  type PermissionRule,
  type RuleMatch,
  type SandboxTargets,
  type UnenforceableRule,
  validatePermissions,
} from "../permissions/index.js";
export {
  type BackendAccess,
  type BackendOperation,
  BackendWrapper,
  type GuardedCall,
} from "./compose/backend-wrapper.js";
export {
  CompositeBackend,
  type CompositeBackendOptions,
  type PartialError,
  type PartialErrors,
} from "./compose/composite.js";
export { FilesystemBackend, type FilesystemBackendOptions } from "./disk/filesystem.js";
export { LocalShellBackend, type LocalShellBackendOptions } from "./disk/local-shell.js";
export { InMemoryBackend, type InMemoryBackendOptions } from "./file-map/in-memory.js";
export { StateBackend } from "./file-map/state.js";
export {
  activePathPolicy,
  type PathPolicy,
  type PolicyOperation,
} from "./protocol/path-policy.js";
export { checkVirtualPath, type PathCheck } from "./protocol/paths.js";
export type {
  BackendError,
  BackendErrorCode,
  BackendProtocol,
  DeleteResult,
  EditOptions,
  EditResult,
  ExecutableBackend,
  ExecuteOptions,
  ExecuteResult,
  ExecutionFacts,
  FileData,
  FileDownloadResult,
  FileInfo,
  FileUpload,
  FileUploadResult,
  GlobOptions,
  GlobResult,
  GrepMatch,
  GrepOptions,
  GrepResult,
  LsResult,
  PathRestrictable,
  ReadOptions,
  ReadResult,
  WriteResult,
} from "./protocol/protocol.js";
export { BaseSandbox } from "./sandbox/base-sandbox.js";
export { SandboxBackend, type SandboxBackendOptions } from "./sandbox/sandbox.js";
export {
  StoreBackend,
  type StoreBackendContext,
  type StoreBackendOptions,
  type StoreBackendUser,
} from "./store/store.js";
