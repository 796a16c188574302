import fs from "node:fs";
import { inflateSync } from "node:zlib";
import { type Browser, chromium } from "playwright-core";
import { expect } from "vitest";

/** Launches Debian's chromium headless; playwright gives it a fresh temporary profile. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--disable-sync",
    ],
  });
}

/** A screenshot that is not blank: a PNG whose decoded pixels are not all one colour. */
export function expectNonBlankPng(file: string) {
  const png = fs.readFileSync(file);
  expect(png.subarray(1, 4).toString()).toBe("PNG");
  expect(distinctColours(png)).toBeGreaterThan(3);
}

// Decodes an 8-bit RGB/RGBA non-interlaced PNG (what Chromium writes) and counts colours.
function distinctColours(png: Buffer): number {
  let offset = 8;
  let width = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString("latin1", offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = body.readUInt32BE(0);
      channels = body[9] === 6 ? 4 : 3;
    }
    if (type === "IDAT") data.push(body);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const colours = new Set<string>();
  let prev = Buffer.alloc(stride);
  for (let row = 0; row * (stride + 1) < raw.length; row++) {
    const filter = raw[row * (stride + 1)]!;
    const line = Buffer.from(raw.subarray(row * (stride + 1) + 1, (row + 1) * (stride + 1)));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? line[i - channels]! : 0;
      const b = prev[i]!;
      const c = i >= channels ? prev[i - channels]! : 0;
      const p = a + b - c;
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c;
      const add = [0, a, b, (a + b) >> 1, paeth][filter]!;
      line[i] = (line[i]! + add) & 255;
    }
    for (let x = 0; x < width && colours.size < 100; x += 7) {
      colours.add(line.subarray(x * channels, x * channels + 3).toString("hex"));
    }
    prev = line;
  }
  return colours.size;
}
