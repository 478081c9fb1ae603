/**
 * Categorize's categories (server/src/flows/components/llm/categorize.ts): `category_description` is an object
 * keyed by the category's name — `{description, examples (one a line), to}` — in the order they are tried, the
 * last being the fallback. The name is also the port's handle, and `to` is where its edge leads (drawn on the
 * canvas, kept here as it is).
 */

export interface Category {
  description?: string;
  examples?: string;
  to?: string;
  [other: string]: unknown;
}

export type Categories = Record<string, Category>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export function categoriesOf(value: unknown): Categories {
  return isObject(value) ? (Object.fromEntries(Object.entries(value).filter(([, category]) => isObject(category))) as Categories) : {};
}

/** A new category at the end, named "<base> n" with the first n no category has. */
export function addCategory(categories: Categories, base: string): { categories: Categories; name: string } {
  let n = Object.keys(categories).length + 1;
  while (`${base} ${n}` in categories) n++;
  const name = `${base} ${n}`;
  return { categories: { ...categories, [name]: { description: "", examples: "" } }, name };
}

export function removeCategory(categories: Categories, name: string): Categories {
  return Object.fromEntries(Object.entries(categories).filter(([other]) => other !== name));
}

export function setCategory(categories: Categories, name: string, patch: Partial<Category>): Categories {
  return { ...categories, [name]: { ...categories[name], ...patch } };
}

/** Why a name cannot be given to a category (the server trims none, so neither do we), or undefined. */
export function renameProblem(categories: Categories, from: string, to: string): string | undefined {
  if (to.trim() === "") return "flow.components.Categorize.errors.categoryName";
  if (to !== from && to in categories) return "flow.form.categories.nameTaken";
  return undefined;
}

/** The category renamed in place (its order, description, examples and `to` kept). */
export function renameCategory(categories: Categories, from: string, to: string): Categories {
  return Object.fromEntries(Object.entries(categories).map(([name, category]) => [name === from ? to : name, category]));
}
