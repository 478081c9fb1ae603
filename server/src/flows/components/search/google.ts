import { componentText, type ComponentDefinition } from "../../component";
import { DESCRIPTION, INPUT_VARIABLES, topN } from "../../params";
import { serpApiSearch } from "./serpapi";
import { SEARCH_RESTRICTED_TARGETS, noResults, requiredKey, searchOutput, searchQuery, topNOf } from "./web-search";

const NAME = "Google";
const SERVICE = "Google (SerpApi)";
/** Google's `num` goes up to 100. */
const MAX_RESULTS = 100;

/** The countries (`gl`) and interface languages (`hl`) RAGFlow v0.14 offers, Google's own codes. */
const COUNTRIES = [
  "af", "al", "dz", "as", "ad", "ao", "ai", "aq", "ag", "ar", "am", "aw", "au", "at", "az", "bs", "bh", "bd", "bb", "by", "be", "bz", "bj", "bm", "bt", "bo",
  "ba", "bw", "bv", "br", "io", "bn", "bg", "bf", "bi", "kh", "cm", "ca", "cv", "ky", "cf", "td", "cl", "cn", "cx", "cc", "co", "km", "cg", "cd", "ck", "cr",
  "ci", "hr", "cu", "cy", "cz", "dk", "dj", "dm", "do", "ec", "eg", "sv", "gq", "er", "ee", "et", "fk", "fo", "fj", "fi", "fr", "gf", "pf", "tf", "ga", "gm",
  "ge", "de", "gh", "gi", "gr", "gl", "gd", "gp", "gu", "gt", "gn", "gw", "gy", "ht", "hm", "va", "hn", "hk", "hu", "is", "in", "id", "ir", "iq", "ie", "il",
  "it", "jm", "jp", "jo", "kz", "ke", "ki", "kp", "kr", "kw", "kg", "la", "lv", "lb", "ls", "lr", "ly", "li", "lt", "lu", "mo", "mk", "mg", "mw", "my", "mv",
  "ml", "mt", "mh", "mq", "mr", "mu", "yt", "mx", "fm", "md", "mc", "mn", "ms", "ma", "mz", "mm", "na", "nr", "np", "nl", "an", "nc", "nz", "ni", "ne", "ng",
  "nu", "nf", "mp", "no", "om", "pk", "pw", "ps", "pa", "pg", "py", "pe", "ph", "pn", "pl", "pt", "pr", "qa", "re", "ro", "ru", "rw", "sh", "kn", "lc", "pm",
  "vc", "ws", "sm", "st", "sa", "sn", "rs", "sc", "sl", "sg", "sk", "si", "sb", "so", "za", "gs", "es", "lk", "sd", "sr", "sj", "sz", "se", "ch", "sy", "tw",
  "tj", "tz", "th", "tl", "tg", "tk", "to", "tt", "tn", "tr", "tm", "tc", "tv", "ug", "ua", "ae", "uk", "gb", "us", "um", "uy", "uz", "vu", "ve", "vn", "vg",
  "vi", "wf", "eh", "ye", "zm", "zw",
];
const LANGUAGES = [
  "af", "ak", "sq", "ws", "am", "ar", "hy", "az", "eu", "be", "bem", "bn", "bh", "xx-bork", "bs", "br", "bg", "bt", "km", "ca", "chr", "ny", "zh-cn", "zh-tw",
  "co", "hr", "cs", "da", "nl", "xx-elmer", "en", "eo", "et", "ee", "fo", "tl", "fi", "fr", "fy", "gaa", "gl", "ka", "de", "el", "kl", "gn", "gu", "xx-hacker",
  "ht", "ha", "haw", "iw", "hi", "hu", "is", "ig", "id", "ia", "ga", "it", "ja", "jw", "kn", "kk", "rw", "rn", "xx-klingon", "kg", "ko", "kri", "ku", "ckb",
  "ky", "lo", "la", "lv", "ln", "lt", "loz", "lg", "ach", "mk", "mg", "ms", "ml", "mt", "mv", "mi", "mr", "mfe", "mo", "mn", "sr-me", "my", "ne", "pcm", "nso",
  "no", "nn", "oc", "or", "om", "ps", "fa", "xx-pirate", "pl", "pt", "pt-br", "pt-pt", "pa", "qu", "ro", "rm", "nyn", "ru", "gd", "sr", "sh", "st", "tn", "crs",
  "sn", "sd", "si", "sk", "sl", "so", "es", "es-419", "su", "sw", "sv", "tg", "ta", "tt", "te", "th", "ti", "to", "lua", "tum", "tr", "tk", "tw", "ug", "uk",
  "ur", "uz", "vu", "vi", "cy", "wo", "xh", "yi", "yo", "zu",
];

export const google: ComponentDefinition = {
  name: NAME,
  category: "search",
  icon: "SiGoogle",
  needs: ["apiKey", "internet"],
  restrictedTargets: SEARCH_RESTRICTED_TARGETS,
  params: [
    DESCRIPTION,
    INPUT_VARIABLES,
    topN(10),
    // RAGFlow's default key is the placeholder "xxx"; an empty one says plainly that a key is missing.
    { key: "api_key", type: "secret", label: componentText.param(NAME, "api_key"), help: `flow.components.${NAME}.help.api_key`, default: "" },
    { key: "country", type: "select", label: componentText.param(NAME, "country"), default: "cn", options: COUNTRIES.map((value) => ({ value })) },
    { key: "language", type: "select", label: componentText.param(NAME, "language"), default: "en", options: LANGUAGES.map((value) => ({ value })) },
  ],
  async run(context) {
    const apiKey = requiredKey(context.params.api_key, SERVICE);
    const query = searchQuery(context);
    if (!query) return noResults();
    const count = topNOf(context, MAX_RESULTS);
    const found = await serpApiSearch(context, NAME, SERVICE, { engine: "google", q: query, api_key: apiKey, gl: String(context.params.country), hl: String(context.params.language), num: count });
    return searchOutput(
      found.flatMap((r) => (r.link ? [{ title: r.title ?? r.link, url: r.link, content: r.snippet ?? "" }] : [])),
      count,
    );
  },
};
