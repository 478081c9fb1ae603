/**
 * Embeds its arguments in a fresh process and prints the vectors as JSON: the embedding test compares
 * them with the vectors of the test's own process.
 */
import { BuiltinEmbedding } from "./embedding";

new BuiltinEmbedding()
  .embed(process.argv.slice(2))
  .then(({ vectors }) => process.stdout.write(JSON.stringify(vectors)))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
