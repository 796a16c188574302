import type {
  ExecuteOptions,
  ExecuteResult,
  FileDownloadResult,
  FileUpload,
  FileUploadResult,
} from "delve";
import { BaseSandbox } from "delve";

/** Your provider's client: run a command, put files, get files. */
declare const api: {
  run(id: string, command: string, options?: ExecuteOptions): Promise<ExecuteResult>;
  put(id: string, files: FileUpload[]): Promise<FileUploadResult[]>;
  get(id: string, paths: string[]): Promise<FileDownloadResult[]>;
};

export class CloudSandbox extends BaseSandbox {
  readonly id = "sbx-123";
  readonly workspace = "/home/user"; // where virtual "/" lives inside the sandbox
  async execute(command: string, options?: ExecuteOptions) {
    return api.run(this.id, command, options);
  }
  async uploadFiles(files: FileUpload[]) {
    return api.put(
      this.id,
      files.map((f) => ({ ...f, path: this.sandboxPath(f.path) })),
    );
  }
  async downloadFiles(paths: string[]) {
    return api.get(
      this.id,
      paths.map((p) => this.sandboxPath(p)),
    );
  }
}
