import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { expect } from "vitest";
import { decodePng, luminanceSpread } from "../evals/png.js";

/** Debian's chromium: the tests drive it, no browser download. */
export const CHROMIUM = "/usr/bin/chromium";

/** Headless, offline, no first-run work: how every browser test starts it. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
];

/** Launches Debian's chromium headless; playwright gives it a fresh temporary profile. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** A screenshot that is not blank: a PNG whose pixels are not (nearly) all one colour. */
export function expectNonBlankPng(file: string) {
  expect(luminanceSpread(decodePng(fs.readFileSync(file)))).toBeGreaterThan(5);
}

/**
 * Chromium with one 1280x900 page, and the folder its screenshots go to (a temporary one;
 * DELVE_UI_SHOTS keeps them, docs/ui.md uses them).
 */
export async function openPage(): Promise<{ browser: Browser; page: Page; shots: string }> {
  const shots =
    process.env.DELVE_UI_SHOTS ?? fs.mkdtempSync(path.join(os.tmpdir(), "delve-ui-shots-"));
  fs.mkdirSync(shots, { recursive: true });
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  return { browser, page, shots };
}
