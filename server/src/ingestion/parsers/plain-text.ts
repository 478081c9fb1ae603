/** Text files arrive in whatever encoding their author's system used. */
export function decodeText(data: Buffer): string {
  if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) return new TextDecoder("utf-8").decode(data.subarray(3));
  if (data[0] === 0xff && data[1] === 0xfe) return new TextDecoder("utf-16le").decode(data.subarray(2));
  if (data[0] === 0xfe && data[1] === 0xff) return new TextDecoder("utf-16be").decode(data.subarray(2));
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch {
    return decodeChinese(data);
  }
}

// The most frequent Chinese characters in each script: Big5 bytes read as GB18030 (or the reverse) decode without
// error but into rare characters, so the reading that yields more common ones is the right encoding.
const COMMON_SIMPLIFIED = new Set("的一是不了在人有我他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长");
const COMMON_TRADITIONAL = new Set("的一是不了在人有我他這中大來上國個到說們為子和你地出道也時年得就那要下以生會自著去之過家學對可裡後小麼心多天而能好都然沒日於起還發成事只作當想看文無開手十用主行方又如前所本見經頭面公同三已老從動兩長");

function decodeChinese(data: Buffer): string {
  const readings = (["gb18030", "big5"] as const).map((encoding) => {
    const text = new TextDecoder(encoding).decode(data);
    const common = encoding === "gb18030" ? COMMON_SIMPLIFIED : COMMON_TRADITIONAL;
    let score = 0;
    for (const character of text) {
      if (common.has(character)) score += 1;
      else if (character === "\ufffd") score -= 2;
    }
    return { text, score };
  });
  return readings[1].score > readings[0].score ? readings[1].text : readings[0].text;
}

/** Paragraphs are separated by blank lines; the line breaks inside one are kept. */
export function paragraphsOf(text: string): string[] {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t\f\v]*\n/)
    .map((paragraph) => paragraph.replace(/[ \t]+$/gm, "").trim())
    .filter((paragraph) => paragraph !== "");
}
