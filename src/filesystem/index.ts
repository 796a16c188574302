// The filesystem folder's boundary: the middleware that owns the eight file tools. Every name
// here is public API, re-exported by the package root.

export {
  FILESYSTEM_MIDDLEWARE_NAME,
  type FilesystemMiddlewareOptions,
  FS_TOOL_NAMES,
  type FsToolName,
  filesystemMiddleware,
} from "./middleware.js";
