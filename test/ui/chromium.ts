import fs from "node:fs";
import { type Browser, chromium } from "playwright-core";
import { expect } from "vitest";
import { decodePng, luminanceSpread } from "../evals/png.js";

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

/** A screenshot that is not blank: a PNG whose pixels are not (nearly) all one colour. */
export function expectNonBlankPng(file: string) {
  expect(luminanceSpread(decodePng(fs.readFileSync(file)))).toBeGreaterThan(5);
}
