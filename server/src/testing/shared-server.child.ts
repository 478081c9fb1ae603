import "reflect-metadata";
import { startTestServer } from "./app";

/**
 * The shared test server of one Jest worker (see shared-server-environment.cjs): a test server as startTestServer
 * makes it, in a process of its own, which tells its URL to the worker and stops when the worker is gone.
 */
startTestServer().then(
  (server) => {
    process.send!({ url: server.url, dataDir: server.dataDir });
    process.once("disconnect", () => {
      void server.close().finally(() => process.exit(0));
    });
  },
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
