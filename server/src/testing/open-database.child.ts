import "reflect-metadata";
import { openDatabase } from "../platform/database";
import { platformParts } from "../platform-parts";

/**
 * A second process opening the embedded database in DATA_DIR, as a second `npm start` would. Prints
 * "opened" (and closes again) or "refused: <message>" and exits with code 2.
 */
openDatabase({ dataDir: process.env.DATA_DIR!, databaseUrl: undefined }, platformParts).then(
  async (database) => {
    console.log("opened");
    await database.close();
  },
  (error: Error) => {
    console.log(`refused: ${error.message}`);
    process.exitCode = 2;
  },
);
