/** jieba's IDF table (the one its TF-IDF keyword extraction uses); unknown words get its median, as there. */
let loaded: { table: Map<string, number>; median: number } | undefined;

export function chineseIdfTable(): { table: Map<string, number>; median: number } {
  if (!loaded) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { idf } = require("@node-rs/jieba/dict") as typeof import("@node-rs/jieba/dict");
    const table = new Map<string, number>();
    const values: number[] = [];
    for (const line of Buffer.from(idf).toString("utf8").split("\n")) {
      const space = line.lastIndexOf(" ");
      if (space <= 0) continue;
      const value = Number(line.slice(space + 1));
      table.set(line.slice(0, space), value);
      values.push(value);
    }
    values.sort((a, b) => a - b);
    loaded = { table, median: values[values.length >> 1] };
  }
  return loaded;
}
