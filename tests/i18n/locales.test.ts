import fs from "node:fs";
import path from "node:path";

/**
 * Everything a user reads is in their language: every English message exists in the four other locales with the
 * same placeholders, the keys the code names exist, components show no hard-coded English, and a Chinese message
 * reads as Chinese (no English word where a Chinese term exists, no Simplified character in Traditional).
 */

const ROOT = path.resolve(__dirname, "../..");
const LOCALES = ["zh", "zh-TRADITIONAL", "id", "es"] as const;
/** The locale whose plural rules i18next applies to each message file. */
const PLURAL_LOCALE: Record<string, string> = { en: "en", zh: "zh-CN", "zh-TRADITIONAL": "zh-TW", id: "id", es: "es" };
/** i18next's plural forms; `_ordinal_…` forms follow the language's ordinal rules ("1st", "2nd"; `t(key, { ordinal: true })`). */
const PLURAL_SUFFIX = /(_ordinal)?_(zero|one|two|few|many|other)$/;

type Messages = { [key: string]: string | Messages };

function messagesOf(locale: string): Map<string, string> {
  const flat = new Map<string, string>();
  const walk = (node: Messages, prefix: string) => {
    for (const [key, value] of Object.entries(node)) {
      if (typeof value === "string") flat.set(prefix + key, value);
      else walk(value, `${prefix}${key}.`);
    }
  };
  walk(JSON.parse(fs.readFileSync(path.join(ROOT, "locales", `${locale}.json`), "utf8")) as Messages, "");
  return flat;
}

const placeholders = (text: string) => [...new Set([...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]))].sort();

function sourceFiles(directory: string, extensions: RegExp): string[] {
  return fs.readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && extensions.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !file.includes(`${path.sep}gql${path.sep}`) && !/\.test\.tsx?$/.test(file));
}

const english = messagesOf("en");
/** A key the code may name: a message, a plural family's base, or a group of messages. */
const knownKeys = new Set<string>();
for (const key of english.keys()) {
  knownKeys.add(key.replace(PLURAL_SUFFIX, ""));
  const parts = key.split(".");
  for (let i = 1; i <= parts.length; i++) knownKeys.add(parts.slice(0, i).join("."));
}

describe.each(LOCALES)("the %s messages", (locale) => {
  const messages = messagesOf(locale);
  const categories = new Intl.PluralRules(PLURAL_LOCALE[locale]).resolvedOptions().pluralCategories;
  const ordinalCategories = new Intl.PluralRules(PLURAL_LOCALE[locale], { type: "ordinal" }).resolvedOptions().pluralCategories;

  test("have every English message, not empty, with the same placeholders (plurals in the forms of the language)", () => {
    const problems: string[] = [];
    const expectText = (key: string, source: string) => {
      const text = messages.get(key);
      const wanted = placeholders(source);
      // a singular may say "one" in words instead of {{count}}
      const given = key.endsWith("_one") ? [...new Set([...placeholders(text ?? ""), "count"])].filter((name) => wanted.includes(name)).sort() : placeholders(text ?? "");
      if (text === undefined) problems.push(`${key}: missing`);
      else if (text.trim() === "") problems.push(`${key}: empty`);
      else if (given.join() !== wanted.join() || placeholders(text).some((name) => !wanted.includes(name))) problems.push(`${key}: placeholders ${placeholders(text)} instead of ${wanted}`);
    };
    for (const [key, source] of english) {
      if (!PLURAL_SUFFIX.test(key)) expectText(key, source);
      else if (key.endsWith("_other")) for (const category of key.endsWith("_ordinal_other") ? ordinalCategories : categories) expectText(key.replace(/_other$/, `_${category}`), source);
    }
    for (const key of messages.keys()) if (!knownKeys.has(key.replace(PLURAL_SUFFIX, ""))) problems.push(`${key}: not an English message`);
    expect(problems).toEqual([]);
  });
});

describe("Chinese messages", () => {
  /** Names and notations that stay as they are in a Chinese sentence: products, vendors, formats, keys, examples. */
  const KEPT = new Set(
    "Cairn RAGFlow RAPTOR Word Excel PowerPoint Token Top Top-K P N S Markdown WebP Google Cloud Azure OpenAI Vertex Self-RAG Enter Shift Home End Esc iframe body DeepDOC Q A base Asia Shanghai Taipei Bearer Secret SecretId APIPassword App Education knowledge http https s DuckDuckGo PubMed ArXiv arXiv SerpApi GitHub DeepL AkShare Tushare Web MySQL MariaDB PostgreSQL JavaScript Promise".split(" "),
  );
  const SIMPLIFIED_ONLY = new Set("这们个为说时会过还对发开关门问题见现实学东车书长马鸟鱼龙么来从给让认识请谢话语读写设计选择删数据库页图档单击载录传输网络电脑软视频乐错误确标签资权账户级务处结构样条术类项显隐启动创编辑导内检测试验证码经济历无间钟头颜众应该总线称简体儿买卖办协区医华卫压县参双变号吗员响团园围圆场块坚坏执扫扬护报担拥挂挡挤挥换摄摆摇旧晓暂机杀杂极栏树桥楼欢毁气汇汉没泽洁浅浓涌涨渐温湾满滚灭灯灵点烟热爱状独环现画疗盖盘矿础礼离种积稳穷竞笔纠红约纪纯纳纵纸练组细织终绑绕绘绝统继续维综绿缓缘缩罗职联肃胜脉脚脱节药获营蓝虑虽补装规览觉订讨训议讯记讲许论访评诉词译诗详谁调谈谓负贡财责败货质购贴贵费赖赛赞赶跃轨轮轻较辅辆边达迁运进远违连迟适递逻遗邮释钉针钢钥钱铁银链销锁键镜闪闭闲闻阅队阳阴阵阶际陆险难雾顶顺须顾预领额风飞饭饮馆驱鲜鸡齐");

  test.each(["zh", "zh-TRADITIONAL"])("%s has no English word where a Chinese term exists", (locale) => {
    const mixed: string[] = [];
    for (const [key, text] of messagesOf(locale)) {
      if (key.startsWith("language.names.")) continue;
      // quoted examples, code (calls such as main(args), escapes such as \n, references such as begin@key), placeholders,
      // addresses and file names are not words of the sentence
      const sentence = text.replace(/\b\w+\([^)]*\)|\\n|“[^”]*”|「[^」]*」|"[^"]*"|（[A-Za-z][^）]*）|<code>.*?<\/code>|\{\{\s*\w+\s*\}\}|\{\w+\}|https?:\/\/\S+|[\w.+-]+@[\w.-]+|\b[\w-]+\.[\w.-]+\b|\b\w+@/g, "");
      for (const word of sentence.match(/[A-Za-z][A-Za-z-]*/g) ?? []) {
        // acronyms (API, PDF, OCR, TTS…) are how Chinese writes them too
        if (!/^[A-Z0-9-]{2,}s?$/.test(word) && !KEPT.has(word)) mixed.push(`${key}: ${word}`);
      }
    }
    expect(mixed).toEqual([]);
  });

  test("Traditional Chinese uses no Simplified character", () => {
    const simplified: string[] = [];
    for (const [key, text] of messagesOf("zh-TRADITIONAL")) {
      // the name of Simplified Chinese is written in its own script
      if (/^language\.(names|short)\.zh$/.test(key)) continue;
      const found = [...text].filter((c) => SIMPLIFIED_ONLY.has(c));
      if (found.length > 0) simplified.push(`${key}: ${found.join("")}`);
    }
    expect(simplified).toEqual([]);
  });
});

describe("the code", () => {
  test("names only message keys that exist", () => {
    const unknown: string[] = [];
    for (const file of sourceFiles(path.join(ROOT, "client/src"), /\.tsx?$/)) {
      for (const match of fs.readFileSync(file, "utf8").matchAll(/\b(?:t|i18n\.t)\(\s*["']([a-zA-Z][\w.-]+)["']/g)) {
        if (!knownKeys.has(match[1])) unknown.push(`${path.relative(ROOT, file)}: ${match[1]}`);
      }
    }
    for (const file of sourceFiles(path.join(ROOT, "server/src"), /\.ts$/)) {
      for (const match of fs.readFileSync(file, "utf8").matchAll(/["'`]((?:errors|parseLog|kbTaskLog|httpStatus|chat\.defaults)\.[\w.]+)["'`]/g)) {
        if (!knownKeys.has(match[1])) unknown.push(`${path.relative(ROOT, file)}: ${match[1]}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  test("client components show no hard-coded English text", () => {
    /** Names that are the same in every language. */
    const NAMES = new Set(["Cairn", "HTML", "RAPTOR"]);
    const found: string[] = [];
    for (const file of sourceFiles(path.join(ROOT, "client/src"), /\.tsx$/)) {
      const source = fs.readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
      const where = (index: number) => `${path.relative(ROOT, file)}:${source.slice(0, index).split("\n").length}`;
      // text between a tag's ">" (not an arrow's) and the next "<"
      for (const match of source.matchAll(/(?<![=-])>([^<>{}()=;]*)</g)) {
        const text = match[1].trim();
        // a type's angle brackets (Promise<void>, success: Parameters<…>) are not a tag's
        const typeAnnotation = /\b\w+\??:\s*[A-Z]\w*$/.test(text) || /^[A-Z]\w*$/.test(text) && source[match.index + match[0].length] !== "/";
        if (/[A-Za-z]{2,}/.test(text) && !/&&|\|\|/.test(text) && !NAMES.has(text) && !typeAnnotation) found.push(`${where(match.index)}: ${text}`);
      }
      // literal strings in JSX children: {"Some text"}
      for (const match of source.matchAll(/\{\s*["'`]([^"'`{}]*[A-Za-z]{2,}[^"'`{}]*)["'`]\s*\}/g)) {
        if (/\s/.test(match[1].trim()) && !NAMES.has(match[1])) found.push(`${where(match.index)}: ${match[1]}`);
      }
      // attributes a user reads
      for (const match of source.matchAll(/\b(placeholder|title|aria-label|label|alt|helper|description)="([^"]*[A-Za-z]{2,}[^"]*)"/g)) {
        if (!NAMES.has(match[2])) found.push(`${where(match.index)}: ${match[0]}`);
      }
    }
    expect(found).toEqual([]);
  });
});
