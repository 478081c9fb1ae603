import { Link } from "@chakra-ui/react";
import { defaultUrlTransform, type Components } from "react-markdown";

/**
 * react-markdown's urlTransform keeping only links to the web or mail, and with `inPage` to an anchor within the text:
 * react-markdown already drops javascript: and the like; a relative path would point into this app.
 */
export function safeUrls({ inPage }: { inPage: boolean }): (url: string) => string {
  const allowed = inPage ? /^(https?:|mailto:|#)/i : /^(https?:|mailto:)/i;
  return (url) => {
    const cleaned = defaultUrlTransform(url);
    return allowed.test(cleaned) ? cleaned : "";
  };
}

/**
 * Links opened outside the page (an anchor within the text stays in it), and pictures shown as links, never fetched
 * by themselves: a document or a model must not make the browser call any address.
 */
export const safeLinks: Pick<Components, "a" | "img"> = {
  a: ({ href, children }) =>
    href ? (
      <Link href={href} target={href.startsWith("#") ? undefined : "_blank"} rel="noopener noreferrer nofollow" color="brand.fg" textDecoration="underline">
        {children}
      </Link>
    ) : (
      <>{children}</>
    ),
  img: ({ alt, src }) =>
    typeof src === "string" && src ? (
      <Link href={src} target="_blank" rel="noopener noreferrer nofollow" color="brand.fg">
        {alt || src}
      </Link>
    ) : (
      <>{alt}</>
    ),
};
