/** File extensions `read_file` returns as multimodal content blocks instead of text. */
export type MediaKind = "image" | "audio" | "video" | "file";

const TABLE: Record<string, [MediaKind, string]> = {
  png: ["image", "image/png"],
  jpg: ["image", "image/jpeg"],
  jpeg: ["image", "image/jpeg"],
  gif: ["image", "image/gif"],
  webp: ["image", "image/webp"],
  heic: ["image", "image/heic"],
  heif: ["image", "image/heif"],
  mp4: ["video", "video/mp4"],
  mpeg: ["video", "video/mpeg"],
  mpg: ["video", "video/mpeg"],
  mov: ["video", "video/quicktime"],
  avi: ["video", "video/x-msvideo"],
  flv: ["video", "video/x-flv"],
  webm: ["video", "video/webm"],
  wmv: ["video", "video/x-ms-wmv"],
  "3gpp": ["video", "video/3gpp"],
  wav: ["audio", "audio/wav"],
  mp3: ["audio", "audio/mpeg"],
  aiff: ["audio", "audio/aiff"],
  aac: ["audio", "audio/aac"],
  ogg: ["audio", "audio/ogg"],
  flac: ["audio", "audio/flac"],
  pdf: ["file", "application/pdf"],
  ppt: ["file", "application/vnd.ms-powerpoint"],
  pptx: ["file", "application/vnd.openxmlformats-officedocument.presentationml.presentation"],
};

/** The media kind and MIME type of a path by its extension, or undefined for text. */
export function mediaTypeOf(path: string): { kind: MediaKind; mimeType: string } | undefined {
  const dot = path.lastIndexOf(".");
  if (dot === -1 || dot < path.lastIndexOf("/")) return undefined;
  const entry = TABLE[path.slice(dot + 1).toLowerCase()];
  return entry ? { kind: entry[0], mimeType: entry[1] } : undefined;
}

/** True when the bytes look binary: a NUL byte or invalid UTF-8 in the first 8 KB. */
export function looksBinary(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) return true;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head.subarray(0, trimPartialUtf8(head)));
    return false;
  } catch {
    return true;
  }
}

/** The length of `bytes` without a trailing partial UTF-8 sequence (a cut may split one). */
export function trimPartialUtf8(bytes: Uint8Array): number {
  let end = bytes.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const b = bytes[end - back]!;
    if ((b & 0xc0) === 0x80) continue;
    if ((b & 0xc0) === 0xc0) {
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      if (back < need) end -= back;
    }
    break;
  }
  return end;
}
