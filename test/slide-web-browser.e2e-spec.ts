/**
 * The web slides as a reader sees them: opened in Debian's Chromium in a 1366 x 768 window (a common laptop),
 * every slide shown, body text and lists read at 14 px or more, and nothing runs out of its slide.
 */
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './support/swagger-ui';
import { boardSnapshot, hardSnapshot, input, wideSnapshot } from './fixtures/snapshots';
import { renderSlideWebHtml } from '../src/modules/exports/renderers/slide-web.renderer';

const BODY_TEXT = ['.what p:not(.src)', '.card p:not(.related)', '.sources li', '.priorities li', '.band .selection', 'table.quarters td'];

describe('web slides in Chromium at 1366 x 768', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it.each([
    ['board', boardSnapshot],
    ['wide', wideSnapshot],
    ['hard', hardSnapshot],
  ])('the %s slides: body text at 14 px or more, and every slide holds its content', async (_name, make) => {
    await page.setContent(renderSlideWebHtml(input(make())), { waitUntil: 'load' });
    await page.evaluate('document.fonts.ready');
    // Runs in the page (a string, so the project's types need no DOM library).
    const report = (await page.evaluate(`(() => {
      const selectors = ${JSON.stringify(BODY_TEXT)};
      const smallest = {};
      for (const selector of selectors) {
        for (const el of document.querySelectorAll(selector)) {
          const size = parseFloat(getComputedStyle(el).fontSize);
          smallest[selector] = Math.min(smallest[selector] ?? Infinity, size);
        }
      }
      // Show every slide in turn, as the arrow keys do, and look for anything below its slide's bottom edge.
      const overflowing = [];
      const slides = Array.from(document.querySelectorAll('.slide'));
      slides.forEach((slide, index) => {
        slides.forEach((other) => other.classList.toggle('active', other === slide));
        const bottom = slide.getBoundingClientRect().bottom;
        for (const el of slide.querySelectorAll('.body *, .head *')) {
          const rect = el.getBoundingClientRect();
          if (rect.height > 0 && rect.bottom > bottom + 1) {
            overflowing.push('slide ' + (index + 1) + ': ' + el.tagName.toLowerCase() + '.' + el.className + ' "' + (el.textContent ?? '').slice(0, 40) + '"');
            break;
          }
        }
      });
      return { smallest, overflowing, slides: slides.length };
    })()`)) as { smallest: Record<string, number>; overflowing: string[]; slides: number };
    expect(report.slides).toBeGreaterThan(3);
    for (const [selector, size] of Object.entries(report.smallest)) expect([selector, Math.round(size * 10) / 10, size >= 13.95]).toEqual([selector, Math.round(size * 10) / 10, true]);
    expect(report.overflowing).toEqual([]);
  }, 120_000);
});
