import { defineConfig } from "@playwright/test";
import { CONTACT_ENV } from "./e2e/contact-env";
import { SSO_SERVER_ENV } from "./e2e/sso-provider";

/** The built server (run `npm run build` first), on its own port and a fresh data directory per run. */
const PORT = 9399;
const BASE_URL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: "./e2e",
  // The JSON summary feeds tests/report.mjs, the closing line of `npm test`.
  reporter: [["list"], ["json", { outputFile: "../test-reports/playwright.json" }]],
  // A whole user journey per test: the longest take 45–80 s on a loaded 2-core machine, so each gets two minutes.
  timeout: 120_000,
  // A state awaited may come late on a loaded 2-core machine: the file manager's first listing once took over 10 s
  // while two journeys ran beside it.
  expect: { timeout: 20_000 },
  forbidOnly: !!process.env.CI,
  fullyParallel: true,
  // The two long journeys run side by side; the rest fill in around them.
  workers: 2,
  use: {
    baseURL: BASE_URL,
    locale: "en-US",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  webServer: {
    command: "node e2e/start-server.mjs",
    url: `${BASE_URL}/healthz`,
    // The identity provider of sso.spec.ts is offered on every page's login: the other journeys sign in with passwords.
    // The operator's contact, which force-contact.spec.ts finds on Settings → Contact us.
    env: { PORT: String(PORT), ...SSO_SERVER_ENV, ...CONTACT_ENV },
    reuseExistingServer: false,
    timeout: 60_000,
    // SIGTERM lets the launcher stop the server and delete its temporary data directory.
    gracefulShutdown: { signal: "SIGTERM", timeout: 8_000 },
  },
});
