// `npm test -w server`: the "parallel" project on two workers (each worker's test servers have their own embedded
// databases), then the "serial" project alone (suites that hold a server to a time bound, see jest.config.js). The two
// JSON reports are merged into test-reports/jest.json, the one tests/report.mjs reads, with every file's time in it.
// Arguments after `--` go to both runs (a path pattern, -t …); JEST_WORKERS sets the parallel run's worker count.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const reports = path.resolve(serverDir, "../test-reports");
const jest = path.resolve(serverDir, "../node_modules/jest/bin/jest.js");
fs.mkdirSync(reports, { recursive: true });

const runs = [
  { project: "parallel", options: [`--maxWorkers=${process.env.JEST_WORKERS ?? "2"}`], report: path.join(reports, "jest-parallel.json") },
  { project: "serial", options: ["--runInBand"], report: path.join(reports, "jest-serial.json") },
];

let failed = false;
for (const run of runs) {
  fs.rmSync(run.report, { force: true });
  const result = spawnSync(
    process.execPath,
    ["--experimental-vm-modules", "--no-warnings=ExperimentalWarning", jest, "--selectProjects", run.project, ...run.options, "--passWithNoTests", "--json", `--outputFile=${run.report}`, ...process.argv.slice(2)],
    { cwd: serverDir, stdio: "inherit" },
  );
  if (result.status !== 0) failed = true;
}

const parts = runs.filter((run) => fs.existsSync(run.report)).map((run) => JSON.parse(fs.readFileSync(run.report, "utf8")));
if (parts.length === 0) process.exit(1);
const sum = (key) => parts.reduce((total, part) => total + (part[key] ?? 0), 0);
const merged = {
  ...parts[0],
  success: !failed && parts.length === runs.length && parts.every((part) => part.success),
  startTime: Math.min(...parts.map((part) => part.startTime)),
  testResults: parts.flatMap((part) => part.testResults),
};
for (const key of Object.keys(merged)) if (/^num[A-Z]/.test(key) && typeof merged[key] === "number") merged[key] = sum(key);
fs.writeFileSync(path.join(reports, "jest.json"), JSON.stringify(merged));
for (const run of runs) fs.rmSync(run.report, { force: true });
process.exit(merged.success ? 0 : 1);
