/**
 * `node server/dist/models/builtin/prepare-lexicon.js [directory]`: derives the built-in models' lexicon
 * from WordNet into `directory` (by default server/prepared-models, where the build leaves it), skipping
 * the parts already there. Forked by a server whose build left none (see lexicon.ts), it reports each
 * step to its parent.
 */
import { PREPARED_MODELS_DIRECTORY, writeLexicon } from "./lexicon";

const directory = process.argv[2] ?? PREPARED_MODELS_DIRECTORY;
const started = performance.now();
writeLexicon(directory, (progress) => {
  if (process.send) process.send(progress);
  else if (progress.step !== "done") console.log(`[models] preparing the built-in models: ${progress.step}…`);
})
  .then(() => {
    // The parent's channel would keep this process alive.
    if (process.send) process.disconnect();
    else console.log(`[models] the built-in models are ready in ${directory} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  })
  .catch((error) => {
    console.error("[models] could not prepare the built-in models:", error);
    process.exit(1);
  });
