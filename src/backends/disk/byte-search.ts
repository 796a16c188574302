import fs from "node:fs";
import { looksBinary } from "../protocol/media-types.js";
import type { GrepMatch, GrepResult } from "../protocol/protocol.js";
import { grepText } from "../protocol/text-content.js";

/**
 * Literal grep over raw file bytes: a file is decoded only when its bytes contain the
 * pattern, so a search over thousands of files costs little more than reading them.
 */
export class ByteSearch {
  private readonly needle: Buffer;
  private buffer = Buffer.allocUnsafeSlow(64 * 1024);
  private readonly matches: GrepMatch[] = [];
  private truncated = false;

  constructor(
    private readonly pattern: string,
    private readonly max: number,
    private readonly maxBytes: number,
  ) {
    this.needle = Buffer.from(pattern, "utf8");
  }

  /** Searches one open file (and closes it); false once the cap is reached. */
  file(fd: number, size: number, shown: string): boolean {
    let length = 0;
    try {
      if (size > this.maxBytes) return true;
      if (size > this.buffer.length) this.buffer = Buffer.allocUnsafeSlow(size * 2);
      while (length < size) {
        const n = fs.readSync(fd, this.buffer, length, size - length, null);
        if (n === 0) break;
        length += n;
      }
    } catch {
      return true; // unreadable: skipped like a binary file
    } finally {
      fs.closeSync(fd);
    }
    const bytes = this.buffer.subarray(0, length);
    if (bytes.indexOf(this.needle) === -1 || looksBinary(bytes)) return true;
    if (!grepText(shown, bytes.toString("utf8"), this.pattern, this.matches, this.max)) {
      this.truncated = true;
      return false;
    }
    return true;
  }

  result(): GrepResult {
    return this.truncated ? { matches: this.matches, truncated: true } : { matches: this.matches };
  }
}
