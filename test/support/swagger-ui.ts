import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
/** Swagger UI renders, sends and shows a response well within this, even for a synchronous scan. */
const UI_TIMEOUT_MS = 60000;

/** Debian's Chromium, headless. Missing is a failure, not a skip: CI must run this check. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium (apt-get install chromium); install it to run this test`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: ['--headless=new', '--no-sandbox'] });
}

/** Opens Swagger UI and waits until every operation block is rendered. */
export async function openSwaggerUi(page: Page, baseUrl: string): Promise<void> {
  page.setDefaultTimeout(UI_TIMEOUT_MS);
  await page.goto(`${baseUrl}/docs`);
  await page.locator('.opblock').first().waitFor();
}

/** Authorize dialog: types each credential into its scheme's form and applies it, as a user does. */
export async function authorize(page: Page, credentials: Record<string, string>): Promise<void> {
  await page.locator('.auth-wrapper .authorize').click();
  const dialog = page.locator('.dialog-ux .modal-ux');
  for (const [scheme, value] of Object.entries(credentials)) {
    const form = dialog.locator('.auth-container', { has: page.locator('h4 code', { hasText: new RegExp(`^${scheme}$`) }) });
    await form.locator('input').fill(value);
    await form.locator('button.authorize').click();
    await form.getByRole('button', { name: 'Remove authorization' }).waitFor();
  }
  await dialog.locator('button.btn-done').first().click();
}

export interface TryItOut {
  /** Path parameter values by name. */
  path?: Record<string, string>;
  /** Changes to the request body Swagger pre-filled from the document's example. */
  body?: Record<string, unknown>;
}

export interface Outcome {
  status: string;
  /** What Swagger shows under "Response body" (text, or a "Download file" link). */
  responseText: string;
  /** Texts of the "Download file" links Swagger offers for a binary or attachment response. */
  downloadLinks: string[];
  request: Request;
}

/** Expands an operation, turns on Try it out, fills what the test must, executes, and reads the shown response. */
export async function tryOperation(page: Page, tag: string, operationId: string, input: TryItOut = {}): Promise<Outcome> {
  const block = page.locator(`#operations-${tag}-${operationId}`);
  await block.scrollIntoViewIfNeeded();
  if (!(await block.evaluate((element) => element.classList.contains('is-open')))) {
    await block.locator('.opblock-summary-control').click();
  }
  const tryOut = block.locator('.try-out__btn').first();
  // tryItOutEnabled turns it on already; then the button offers "Cancel" instead.
  if ((await tryOut.textContent())?.trim() === 'Try it out') await tryOut.click();
  for (const [name, value] of Object.entries(input.path ?? {})) {
    await block.locator(`tr[data-param-name="${name}"][data-param-in="path"] input`).fill(value);
  }
  if (input.body) {
    const textarea = block.locator('textarea.body-param__text');
    const prefilled = JSON.parse(await textarea.inputValue()) as Record<string, unknown>;
    await textarea.fill(JSON.stringify({ ...prefilled, ...input.body }, null, 2));
  }
  const method = (await block.locator('.opblock-summary-method').textContent())!.trim();
  const template = (await block.locator('.opblock-summary-path').getAttribute('data-path'))!;
  const pathname = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(input.path?.[name] ?? ''));
  const [request] = await Promise.all([
    page.waitForRequest((sent) => sent.method() === method && new URL(sent.url()).pathname === pathname),
    block.locator('button.execute').click(),
  ]);
  const live = block.locator('.live-responses-table tr.response');
  const status = live.locator('.response-col_status');
  await status.waitFor();
  const shown = live.locator('.response-col_description');
  const outcome = {
    status: (await status.textContent())?.trim() ?? '',
    responseText: ((await shown.textContent()) ?? '').slice(0, 2000),
    downloadLinks: await shown.locator('a[download]').allTextContents(),
    request,
  };
  // Open blocks make every later render slower: close it again, as a reader moving on would.
  await block.locator('.opblock-summary-control').click();
  return outcome;
}
