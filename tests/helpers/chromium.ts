import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's Chromium, headless, with a throw-away profile; page errors fail the test. */
export interface TestBrowser {
  readonly context: BrowserContext;
  readonly page: Page;
  close(): Promise<void>;
}

export async function launchChromium(name: string): Promise<TestBrowser> {
  const userDataDir = mkdtempSync(join(tmpdir(), `nbt-${name}-chromium-`));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    viewport: { width: 1280, height: 800 },
    acceptDownloads: true,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => {
    throw error;
  });
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
