export interface TimeZoneOption {
  name: string;
  /** e.g. "GMT+05:30", for showing beside the name. */
  offset: string;
}

let cached: TimeZoneOption[] | undefined;

function offsetOf(timeZone: string): string {
  try {
    const part = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })
      .formatToParts(new Date())
      .find((p) => p.type === "timeZoneName");
    return part?.value ?? "";
  } catch {
    return "";
  }
}

/** Every IANA zone the browser knows, with its current offset; "UTC" is added since some browsers omit it. */
export function timeZoneOptions(): TimeZoneOption[] {
  if (!cached) {
    const names = new Set(Intl.supportedValuesOf("timeZone"));
    names.add("UTC");
    cached = [...names].sort().map((name) => ({ name, offset: offsetOf(name) }));
  }
  return cached;
}
