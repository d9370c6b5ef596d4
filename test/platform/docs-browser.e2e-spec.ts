import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, Browser } from 'playwright-core';
import { TestApp } from '../support/test-app';

/*
 * The docs as a person uses them: headless Chromium (the Debian package; .ci/run installs it when
 * missing) loads /docs (Swagger UI) from the real app listening on a loopback port, authorises
 * with an API key, runs GET /v1/workspace from the page and sees the 200 answer. The screenshot
 * (the operation with its answer; the whole page when the test fails) is kept at
 * var/screenshots/docs-get-workspace.png (gitignored) as a CI artefact.
 *
 * Nothing is skipped: without a Chromium this test fails and says how to get one.
 */

const ROOT = join(__dirname, '..', '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOT = join(ROOT, 'var', 'screenshots', 'docs-get-workspace.png');
const SLOW = 60_000;

describe('Swagger UI at /docs in a real browser', () => {
  let t: TestApp;
  let browser: Browser | undefined;
  let baseUrl: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `Chromium not found at ${CHROMIUM}: install the Debian package (apt-get install -y chromium; .ci/run does) or point CHROMIUM_PATH at a Chromium`,
      );
    }
    t = await TestApp.create();
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as { port: number };
    baseUrl = `http://127.0.0.1:${port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      // Running as root needs --no-sandbox; the rest keep Chromium off the (closed) network.
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, SLOW);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it(
    'authorise with an API key, execute GET /v1/workspace, the 200 answer is shown',
    async () => {
      await t.reset();
      const ws = await t.seed({ name: 'Docs Browser Co' });
      const page = await browser!.newPage({ viewport: { width: 1280, height: 1000 } });
      page.setDefaultTimeout(15_000);
      mkdirSync(join(ROOT, 'var', 'screenshots'), { recursive: true });
      try {
        await page.goto(`${baseUrl}/docs`);
        await page.locator('.swagger-ui .info .title').waitFor();

        // Authorize: the bearer scheme's dialog.
        await page.locator('.scheme-container button.authorize').click();
        const dialog = page.locator('.dialog-ux .modal-ux');
        await dialog.locator('input').first().fill(ws.key);
        await dialog.locator('button.modal-btn.authorize').click();
        await dialog.locator('button.btn-done').click();

        // GET /v1/workspace: expand, try it out, execute.
        const operation = page.locator('.opblock.opblock-get', { has: page.locator('.opblock-summary-path[data-path="/v1/workspace"]') });
        // Swagger UI renders a long document's operations as the page scrolls (a virtualized
        // list): scroll until the operation is drawn. Its tag (workspaces) comes last.
        for (let i = 0; i < 200 && (await operation.count()) === 0; i++) {
          await page.mouse.wheel(0, 800);
          await page.waitForTimeout(25);
        }
        await operation.locator('.opblock-summary').first().click();
        await operation.locator('button.try-out__btn').click();
        await operation.locator('button.execute').click();

        const response = operation.locator('.live-responses-table .response').first();
        await response.locator('.response-col_status').filter({ hasText: '200' }).waitFor();
        const body = await response.locator('.response-col_description').innerText();
        expect(body).toContain(ws.workspaceId);
        expect(body).toContain('Docs Browser Co');
        // The request the page sent carried the key (shown in its curl line).
        expect(await operation.locator('.curl-command').innerText()).toContain(`Bearer ${ws.key}`);
        await operation.screenshot({ path: SCREENSHOT }); // the operation, its request and its answer
      } catch (error) {
        await page.screenshot({ path: SCREENSHOT, fullPage: true }); // the whole page, to see what went wrong
        throw error;
      } finally {
        await page.close();
      }
    },
    SLOW,
  );
});
