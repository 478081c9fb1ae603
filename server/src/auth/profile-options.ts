/** Colour schemas of the profile page (the spec's "bright or dark"). */
export const COLOR_SCHEMAS = ["Bright", "Dark"] as const;

export function isTimezone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** A profile photo is a data URL of an image, kept small enough to travel with the user record. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const AVATAR_PATTERN = /^data:image\/(png|jpe?g|gif|webp|svg\+xml);base64,[A-Za-z0-9+/=]+$/;
