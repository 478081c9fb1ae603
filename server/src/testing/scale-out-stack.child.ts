import "reflect-metadata";
import path from "node:path";
import { startScaleOutStack } from "./scale-out-stack";

/**
 * The scale-out stack (scale-out-stack.ts) as a process of its own, for the browser journey
 * (tests/e2e/scale-out.spec.ts): `node -r server/src/testing/register-ts.cjs server/src/testing/scale-out-stack.child.ts`.
 * The servers serve the built client (`npm run build` first). It prints one JSON line,
 * {"servers": [urlA, urlB], "startedInMs": n}, once every process is ready, and stops them all on SIGTERM or SIGINT.
 */
async function main(): Promise<void> {
  const startedAt = performance.now();
  const stack = await startScaleOutStack({ clientDir: path.resolve(__dirname, "../../../client/dist") });
  console.log(JSON.stringify({ servers: stack.servers.map((server) => server.url), startedInMs: Math.round(performance.now() - startedAt) }));
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await stack.stop();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
