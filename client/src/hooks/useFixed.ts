import { useTranslation } from "react-i18next";
import { DEFAULT_LANGUAGE, INTL_LOCALES, isLanguage } from "../languages";

/**
 * Similarities and weights always with two decimals (0.50, 1.00): `useFormatters().number` drops the
 * decimals of whole numbers, which would show a perfect match as "1" beside "0.87".
 */
export function useFixed(): (value: number) => string {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  const format = new Intl.NumberFormat(INTL_LOCALES[isLanguage(language) ? language : DEFAULT_LANGUAGE], {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  return (value) => format.format(value);
}
