/**
 * Renders the PNG app icons from the SVGs in public/icons with headless Chromium (no
 * ImageMagick needed). Run after changing an SVG: `node test/support/make-icons.mjs`.
 * The PNGs are committed; the build does not run this.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const dir = fileURLToPath(new URL('../../public/icons/', import.meta.url));
const outputs = [
  { svg: 'icon.svg', png: 'icon-192.png', size: 192 },
  { svg: 'icon.svg', png: 'icon-512.png', size: 512 },
  { svg: 'icon.svg', png: 'apple-touch-icon.png', size: 180 },
  { svg: 'maskable.svg', png: 'maskable-512.png', size: 512 },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
try {
  for (const { svg, png, size } of outputs) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const markup = await readFile(dir + svg, 'utf8');
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${markup}`,
    );
    await page.screenshot({ path: dir + png, omitBackground: true });
    await page.close();
    console.log(`${png} ${size}x${size}`);
  }
} finally {
  await browser.close();
}
