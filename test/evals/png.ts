import { inflateSync } from "node:zlib";

/** A decoded 8-bit RGB(A) PNG: width, height and RGBA pixels. */
export interface Png {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/** Decodes an 8-bit, non-interlaced RGB or RGBA PNG (what Chromium's screenshots are). */
export function decodePng(file: Buffer): Png {
  if (file.subarray(0, 8).toString("hex") !== "89504e470d0a1a0a") throw new Error("not a PNG");
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (offset < file.length) {
    const length = file.readUInt32BE(offset);
    const type = file.toString("latin1", offset + 4, offset + 8);
    const data = file.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [depth, color, , , interlace] = [data[8], data[9], data[10], data[11], data[12]];
      if (depth !== 8 || interlace !== 0 || (color !== 2 && color !== 6)) {
        throw new Error(
          `unsupported PNG (depth ${depth}, color type ${color}, interlace ${interlace})`,
        );
      }
      channels = color === 6 ? 4 : 3;
    } else if (type === "IDAT") idat.push(data);
    else if (type === "IEND") break;
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? (pixels[y * stride + x - channels] as number) : 0;
      const up = y > 0 ? (pixels[(y - 1) * stride + x] as number) : 0;
      const upLeft =
        y > 0 && x >= channels ? (pixels[(y - 1) * stride + x - channels] as number) : 0;
      let predictor = 0;
      if (filter === 1) predictor = left;
      else if (filter === 2) predictor = up;
      else if (filter === 3) predictor = (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        predictor = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      }
      pixels[y * stride + x] = ((line[x] as number) + predictor) & 0xff;
    }
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    for (let c = 0; c < 3; c++) rgba[i * 4 + c] = pixels[i * channels + c] as number;
    rgba[i * 4 + 3] = channels === 4 ? (pixels[i * channels + 3] as number) : 255;
  }
  return { width, height, rgba };
}

/** The standard deviation of the pixels' luminance: near 0 for a blank page. */
export function luminanceSpread(png: Png): number {
  let sum = 0;
  let squares = 0;
  const n = png.width * png.height;
  for (let i = 0; i < n; i++) {
    const y =
      0.299 * (png.rgba[i * 4] as number) +
      0.587 * (png.rgba[i * 4 + 1] as number) +
      0.114 * (png.rgba[i * 4 + 2] as number);
    sum += y;
    squares += y * y;
  }
  const mean = sum / n;
  return Math.sqrt(squares / n - mean * mean);
}

/** How many pixels are within `tolerance` of the colour `hex` ("#c62f2f"). */
export function countColor(png: Png, hex: string, tolerance = 6): number {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [
    number,
    number,
    number,
  ];
  let count = 0;
  for (let i = 0; i < png.width * png.height; i++) {
    if (
      Math.abs((png.rgba[i * 4] as number) - r) <= tolerance &&
      Math.abs((png.rgba[i * 4 + 1] as number) - g) <= tolerance &&
      Math.abs((png.rgba[i * 4 + 2] as number) - b) <= tolerance
    )
      count++;
  }
  return count;
}
