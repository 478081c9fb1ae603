/** RFC 1123 dates as RAGFlow prints them ("Mon, 28 Apr 2025 18:40:41 GMT"). */
export function rfc1123(date: Date | null | undefined): string | null {
  return date ? date.toUTCString() : null;
}

export function epochMillis(date: Date | null | undefined): number | null {
  return date ? date.getTime() : null;
}
