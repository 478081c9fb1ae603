import { expect, test } from "@jest/globals";
import { isLanguage, toInterfaceLanguage } from "./languages";

/** Browser and user-typed language codes land on one of the five interface languages. */

test.each([
  ["zh-TW", "zh-TRADITIONAL"],
  ["zh-Hant-HK", "zh-TRADITIONAL"],
  ["zh_hk", "zh-TRADITIONAL"],
  ["zh-traditional", "zh-TRADITIONAL"],
  ["zh-CN", "zh"],
  ["zh-Hans", "zh"],
  ["en-GB", "en"],
  ["in", "id"],
  ["es-MX", "es"],
])("%s is shown in %s", (code, language) => {
  expect(toInterfaceLanguage(code)).toBe(language);
});

test("a code of another language is kept as it is, and is no interface language", () => {
  expect(toInterfaceLanguage("fr-FR")).toBe("fr-FR");
  expect(isLanguage("fr-FR")).toBe(false);
  expect(isLanguage(null)).toBe(false);
  expect(isLanguage("zh-TRADITIONAL")).toBe(true);
});
