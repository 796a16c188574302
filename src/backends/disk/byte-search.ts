import fs from "node:fs";
import { looksBinary } from "../protocol/media-types.js";
import type { GrepMatch, GrepResult } from "../protocol/protocol.js";
import { grepText } from "../protocol/text-content.js";

/**
 * Literal grep over raw file bytes: a file is decoded only when its bytes contain the
 * pattern, so a search over thousands of files costs little more than reading them. A file
 * over `maxBytes` is searched too, in chunks of whole lines (never skipped silently).
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
    if (size > this.maxBytes) return this.largeFile(fd, shown);
    let length = 0;
    try {
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

  // A file too large to hold at once, read in chunks cut after their last newline; a line
  // longer than a chunk is searched in pieces.
  private largeFile(fd: number, shown: string): boolean {
    const chunk = Buffer.allocUnsafeSlow(Math.min(this.maxBytes, 4 * 1024 * 1024));
    let carry: Buffer = Buffer.alloc(0);
    let lineBase = 0;
    let first = true;
    try {
      for (;;) {
        const n = fs.readSync(fd, chunk, 0, chunk.length, null);
        const data = n === 0 ? carry : Buffer.concat([carry, chunk.subarray(0, n)]);
        if (first && looksBinary(data)) return true;
        first = false;
        const cut = n === 0 ? data.length : data.lastIndexOf(10) + 1 || data.length;
        const part = data.subarray(0, cut);
        carry = Buffer.from(data.subarray(cut));
        if (!this.searchPart(part, shown, lineBase)) return false;
        lineBase += countNewlines(part);
        if (n === 0) return true;
      }
    } catch {
      return true; // unreadable: skipped like a binary file
    } finally {
      fs.closeSync(fd);
    }
  }

  private searchPart(part: Buffer, shown: string, lineBase: number): boolean {
    if (part.length === 0 || part.indexOf(this.needle) === -1) return true;
    const before = this.matches.length;
    const complete = grepText(shown, part.toString("utf8"), this.pattern, this.matches, this.max);
    for (let i = before; i < this.matches.length; i++) this.matches[i]!.line += lineBase;
    if (!complete) this.truncated = true;
    return complete;
  }

  result(): GrepResult {
    return this.truncated ? { matches: this.matches, truncated: true } : { matches: this.matches };
  }
}

function countNewlines(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) count++;
  return count;
}
