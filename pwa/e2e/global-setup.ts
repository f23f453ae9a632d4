/**
 * Starts, once per run: a real sync server on a loopback port (temporary DATA_DIR, serving the
 * built PWA from pwa/dist) and one Chromium. Tests reach both through inject('baseUrl') and
 * inject('wsEndpoint'). Playwright gives the browser a fresh temporary user-data-dir.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { startTestServer, type TestServer } from '../../sync-server/test/harness';
import { recipients, startMailSink, type MailSink } from '../../sync-server/test/mail-sink';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    serverPort: number;
    wsEndpoint: string;
    mailboxUrl: string;
    /** The server's SESSION_SECRET, for a second server that must accept its cookies. */
    sessionSecret: string;
  }
}

// E2E_PWA_DIST lets several people build and test side by side without sharing pwa/dist.
const PWA_DIST = process.env.E2E_PWA_DIST
  ? path.resolve(process.env.E2E_PWA_DIST)
  : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');

/** A free loopback port, so PUBLIC_URL (used in reset links) can name it before the server starts. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Listed in ADMIN_EMAILS: an admin once its address is verified (the link in its sign-up mail);
 * admin.test.ts registers it.
 */
export const E2E_ADMIN_EMAIL = 'admin@e2e.pingme.test';
/** A second admin, only for safety.test.ts, so the two files never race for one account. */
export const E2E_SAFETY_ADMIN_EMAIL = 'safety-admin@e2e.pingme.test';
/** A third, only for layout.test.ts (the dashboard at four widths). */
export const E2E_LAYOUT_ADMIN_EMAIL = 'layout-admin@e2e.pingme.test';
/** A fourth, only for charts.test.ts (the dashboard's trends). */
export const E2E_CHARTS_ADMIN_EMAIL = 'charts-admin@e2e.pingme.test';

let server: TestServer | undefined;
let browser: BrowserServer | undefined;
let mailbox: http.Server | undefined;
let sink: MailSink | undefined;

/**
 * The server's mail goes by real SMTP to a sink on loopback; tests read what reached an address at
 * GET {mailboxUrl}?to=... as [{subject, text}] (the tests run in other processes than this one).
 */
async function startMailbox(mails: MailSink): Promise<string> {
  mailbox = http.createServer((req, res) => {
    const to = (
      new URL(req.url ?? '/', 'http://mailbox').searchParams.get('to') ?? ''
    ).toLowerCase();
    res.setHeader('Content-Type', 'application/json');
    res.end(
      JSON.stringify(
        mails.messages
          .filter((m) => recipients(m).includes(to))
          .map((m) => ({ subject: m.subject ?? '', text: m.text ?? '' })),
      ),
    );
  });
  await new Promise<void>((resolve) => mailbox!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(mailbox.address() as net.AddressInfo).port}`;
}

export async function setup(project: TestProject) {
  if (!existsSync(path.join(PWA_DIST, 'index.html'))) {
    throw new Error('pwa/dist is missing: run `npm run build -w pwa` first (npm test does).');
  }
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: apt-get install -y chromium (or set CHROMIUM_PATH)`,
    );
  }
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  sink = await startMailSink();
  const mailboxUrl = await startMailbox(sink);
  const sessionSecret = randomBytes(32).toString('base64url');
  server = await startTestServer({
    PORT: String(port),
    SESSION_SECRET: sessionSecret,
    PUBLIC_URL: baseUrl,
    PWA_DIST,
    ADMIN_EMAILS: [
      E2E_ADMIN_EMAIL,
      E2E_SAFETY_ADMIN_EMAIL,
      E2E_LAYOUT_ADMIN_EMAIL,
      E2E_CHARTS_ADMIN_EMAIL,
    ].join(','),
    SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
  });
  browser = await chromium.launchServer({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  project.provide('baseUrl', baseUrl);
  project.provide('serverPort', port);
  project.provide('wsEndpoint', browser.wsEndpoint());
  project.provide('mailboxUrl', mailboxUrl);
  project.provide('sessionSecret', sessionSecret);
}

export async function teardown() {
  await browser?.close();
  await server?.stop();
  await new Promise((resolve) => (mailbox ? mailbox.close(resolve) : resolve(undefined)));
  await sink?.close();
}
