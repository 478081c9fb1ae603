/**
 * Loads an ES module from this CommonJS package. A plain `import()` would be compiled to `require()`, which
 * cannot load ESM-only packages (marked, pdfjs-dist) under Jest on Node 20; a Function body is left alone.
 * Its source differs per loaded copy of this module: V8 reuses a function compiled from identical source, and
 * with it the import hook of the Jest test file that compiled it first (which fails once that file has finished).
 */
const importModule = new Function("specifier", `return import(specifier); // ${Math.random()}`) as (specifier: string) => Promise<unknown>;

export function importEsm<T>(specifier: string): Promise<T> {
  return importModule(specifier) as Promise<T>;
}
