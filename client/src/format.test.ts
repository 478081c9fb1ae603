import { expect, test } from "@jest/globals";
import { formatDateTime, formatNumber, formatRelativeTime } from "./format";

/** §9's number and date formats, in the interface language. */

test("numbers carry the language's thousands separator and whole numbers no fraction", () => {
  expect(formatNumber(1234567, "en")).toBe("1,234,567");
  expect(formatNumber(1234567, "es")).toBe("1.234.567");
  expect(formatNumber(1234567, "id")).toBe("1.234.567");
});

test("fractions show two decimals unless told otherwise", () => {
  expect(formatNumber(0.5, "en")).toBe("0.50");
  expect(formatNumber(12.345, "en", 1)).toBe("12.3");
  expect(formatNumber(2.5, "es")).toBe("2,50");
});

test("an unknown language formats as English", () => {
  expect(formatNumber(1234.5, "klingon")).toBe("1,234.50");
});

/** ICU versions differ in the space before "AM" (a narrow no-break space in newer ones). */
const plainSpaces = (text: string) => text.replace(/\s/g, " ");

test("a date is shown in the user's time zone, and still shown when the zone's name is unknown", () => {
  const at = "2026-01-01T08:30:00Z";
  expect(plainSpaces(formatDateTime(at, "en", "UTC"))).toBe("Jan 1, 2026, 8:30 AM");
  expect(plainSpaces(formatDateTime(at, "en", "Asia/Shanghai"))).toBe("Jan 1, 2026, 4:30 PM");
  expect(formatDateTime(new Date(at), "zh", "UTC")).toContain("2026");
  expect(formatDateTime(at, "en", "Not/AZone")).toMatch(/^Jan 1, 2026/);
});

test("a past moment reads as how long ago it was, in the largest whole unit", () => {
  const now = new Date("2026-03-10T12:00:00Z");
  expect(formatRelativeTime("2026-03-10T11:59:40Z", "en", now)).toBe("now");
  expect(formatRelativeTime("2026-03-10T11:55:00Z", "en", now)).toBe("5 minutes ago");
  expect(formatRelativeTime(new Date("2026-03-10T09:00:00Z"), "en", now)).toBe("3 hours ago");
  expect(formatRelativeTime("2026-03-09T10:00:00Z", "en", now)).toBe("yesterday");
  expect(formatRelativeTime("2026-02-20T12:00:00Z", "en", now)).toBe("2 weeks ago");
  expect(formatRelativeTime("2024-03-01T12:00:00Z", "en", now)).toBe("2 years ago");
  expect(formatRelativeTime("2026-03-10T09:00:00Z", "es", now)).toBe("hace 3 horas");
});
