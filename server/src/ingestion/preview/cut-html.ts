/** HTML cut to about `limit` characters after a closing paragraph, table or list, when longer (the sanitiser closes what stays open). */
export function cutHtml(html: string, limit: number): { html: string; truncated: boolean } {
  if (html.length <= limit) return { html, truncated: false };
  const end = Math.max(...["</p>", "</table>", "</ul>", "</ol>", "</h1>", "</h2>", "</h3>"].map((tag) => {
    const at = html.lastIndexOf(tag, limit);
    return at < 0 ? -1 : at + tag.length;
  }));
  return { html: html.slice(0, end > 0 ? end : limit), truncated: true };
}
