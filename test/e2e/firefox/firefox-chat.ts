/**
 * The chat app driven in Firefox as a person would (puppeteer over WebDriver BiDi): the
 * same steps and selectors as the Chromium helpers in ../app-support.ts, for a puppeteer
 * `Page`.
 */
import type { Page } from 'puppeteer-core';

export { script } from '../app-support';

/** The last turn (message + answer) of the open conversation. */
export const LAST_TURN = 'ol.turns > li.turn:last-child';

/** Text of the first element matching `selector`, or null. */
export function textOf(page: Page, selector: string): Promise<string | null> {
  return page.evaluate((s) => (document.querySelector(s) as HTMLElement | null)?.innerText ?? null, selector);
}

/** Waits until `selector`'s text is `expected` (or matches it). */
export async function waitForText(page: Page, selector: string, expected: string | RegExp, timeout = 30_000): Promise<void> {
  const [source, flags, exact] = typeof expected === 'string' ? [expected, '', true] : [expected.source, expected.flags, false];
  await page
    .waitForFunction(
      (s: string, source: string, flags: string, exact: boolean) => {
        const text = (document.querySelector(s) as HTMLElement | null)?.innerText;
        return text !== undefined && (exact ? text === source : new RegExp(source, flags).test(text));
      },
      { timeout, polling: 100 },
      selector,
      source,
      flags,
      exact,
    )
    .catch(async (error: unknown) => {
      throw new Error(`waiting for ${selector} to read ${String(expected)}, it reads ${JSON.stringify(await textOf(page, selector))}: ${String(error)}`);
    });
}

/** Chooses `id` in the model picker as a person would (a model not downloaded yet starts downloading). */
export async function chooseModel(page: Page, id = 'test-scripted'): Promise<void> {
  const row = `li.model[data-model-id="${id}"]`;
  const chosen = () => page.evaluate((r) => document.querySelector(`${r}.selected`) !== null, row);
  await page.click('button.model-button');
  await page.waitForSelector(`dialog[open] ${row}`, { visible: true });
  if (!(await chosen())) await page.click(`${row} .model-actions button.primary`);
  await page.waitForSelector(`dialog[open] ${row}.selected`);
  await page.keyboard.press('Escape');
  await page.waitForSelector('dialog[open]', { hidden: true });
}

/** Types `text` in the composer and sends it with Enter. */
export async function send(page: Page, text: string): Promise<void> {
  await page.click('#composer-input');
  await page.type('#composer-input', text);
  await page.keyboard.press('Enter');
}

/** Waits until the last answer reached `status`. */
export async function waitForAnswer(page: Page, status = 'completed', timeout = 30_000): Promise<void> {
  await page.waitForSelector(`${LAST_TURN}[data-turn-status="${status}"]`, { timeout });
}

/** The last answer's text (its last Markdown block). */
export function lastAnswerText(page: Page): Promise<string | null> {
  return page.evaluate((s) => {
    const blocks = document.querySelectorAll(`${s} .answer .markdown`);
    return (blocks[blocks.length - 1] as HTMLElement | undefined)?.innerText ?? null;
  }, LAST_TURN);
}

