/**
 * Loads an ES module from this CommonJS package. A plain `import()` would be compiled to `require()`, which
 * cannot load ESM-only packages (marked, pdfjs-dist) under Jest on Node 20; a Function body is left alone.
 */
const importModule = new Function("specifier", "return import(specifier)") as (specifier: string) => Promise<unknown>;

export function importEsm<T>(specifier: string): Promise<T> {
  return importModule(specifier) as Promise<T>;
}
