// Adds up the Jest and Playwright results into one closing line, "N passed, N failed, N skipped".
import fs from "node:fs";

const jest = JSON.parse(fs.readFileSync("test-reports/jest.json", "utf8"));
const playwright = JSON.parse(fs.readFileSync("test-reports/playwright.json", "utf8"));
const passed = jest.numPassedTests + playwright.stats.expected;
const failed = jest.numFailedTests + playwright.stats.unexpected + playwright.stats.flaky;
const skipped = jest.numPendingTests + jest.numTodoTests + playwright.stats.skipped;
console.log(`server: ${jest.numPassedTests} passed, ${jest.numFailedTests} failed; browser: ${playwright.stats.expected} passed, ${playwright.stats.unexpected} failed`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
