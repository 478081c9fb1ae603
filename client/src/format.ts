import { useTranslation } from "react-i18next";
import { DEFAULT_LANGUAGE, INTL_LOCALES, isLanguage } from "./languages";

function localeOf(language: string): string {
  return INTL_LOCALES[isLanguage(language) ? language : DEFAULT_LANGUAGE];
}

/** §9: numbers carry thousands separators; fractions show 2 decimals unless told otherwise. */
export function formatNumber(value: number, language: string, decimals = 2): string {
  const fractionDigits = Number.isInteger(value) ? 0 : decimals;
  return new Intl.NumberFormat(localeOf(language), {
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
    useGrouping: true,
  }).format(value);
}

export function formatDateTime(value: string | Date, language: string, timeZone?: string): string {
  const date = typeof value === "string" ? new Date(value) : value;
  const options: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" };
  try {
    return new Intl.DateTimeFormat(localeOf(language), { ...options, timeZone }).format(date);
  } catch {
    // An unknown time-zone name must not hide the date.
    return new Intl.DateTimeFormat(localeOf(language), options).format(date);
  }
}

/** A time of day with its seconds ("Autosaved at 10:32:15"). */
export function formatTime(value: string | Date, language: string, timeZone?: string): string {
  const date = typeof value === "string" ? new Date(value) : value;
  try {
    return new Intl.DateTimeFormat(localeOf(language), { timeStyle: "medium", timeZone }).format(date);
  } catch {
    return new Intl.DateTimeFormat(localeOf(language), { timeStyle: "medium" }).format(date);
  }
}

const RELATIVE_UNITS: [unit: Intl.RelativeTimeFormatUnit, seconds: number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** "3 hours ago", "yesterday", "now": how long ago (or until) a moment is, in the largest whole unit. */
export function formatRelativeTime(value: string | Date, language: string, now: Date = new Date()): string {
  const date = typeof value === "string" ? new Date(value) : value;
  const seconds = (date.getTime() - now.getTime()) / 1000;
  const format = new Intl.RelativeTimeFormat(localeOf(language), { numeric: "auto" });
  for (const [unit, size] of RELATIVE_UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  return format.format(0, "second");
}

/** Formatters bound to the interface language, re-rendering when it changes. */
export function useFormatters(timeZone?: string) {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  return {
    number: (value: number, decimals?: number) => formatNumber(value, language, decimals),
    dateTime: (value: string | Date) => formatDateTime(value, language, timeZone),
    time: (value: string | Date) => formatTime(value, language, timeZone),
    relativeTime: (value: string | Date) => formatRelativeTime(value, language),
  };
}
