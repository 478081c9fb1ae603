import { createHash } from "node:crypto";
import type { RequestHandler } from "express";

/** The share page: the one page other websites may frame (the embed dialog's iframe, the floating widget, the browser extension). */
export const SHARE_PAGE_PATH = "/chat/share";

/**
 * Apollo's landing page at /graphql loads the Sandbox from Apollo's CDN and frames it. Its HTML carries its own
 * CSP `<meta>` with a nonce per page; browsers apply both policies, so this one only has to let the same sources through.
 */
const APOLLO_SCRIPTS = [
  "https://embeddable-sandbox.cdn.apollographql.com",
  "https://embeddable-explorer.cdn.apollographql.com",
  "https://apollo-server-landing-page.cdn.apollographql.com",
];
const APOLLO_FRAMES = ["https://sandbox.embed.apollographql.com", "https://explorer.embed.apollographql.com"];

export interface SecurityHeaderOptions {
  /** The inline scripts of the client's index.html (the theme script that runs before the first paint). */
  inlineScripts: string[];
  /** Origins that may frame the share page; empty: any origin may. */
  embedAllowedOrigins: string[];
  /** Path prefixes of the API (REST facade, health check): answers meant for programs, never rendered as pages. */
  apiPrefixes: string[];
  graphqlPath: string;
}

type Directives = Record<string, string[]>;

const serialize = (directives: Directives) =>
  Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(" "))
    .join("; ");

/** The `'sha256-…'` source that allows exactly this inline script. */
export function scriptHash(script: string): string {
  return `'sha256-${createHash("sha256").update(script, "utf8").digest("base64")}'`;
}

/** The bodies of the inline `<script>` elements (those without `src`) of an HTML page. */
export function inlineScriptsOf(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map((match) => match[1]);
}

/**
 * The built client's policy. Chakra UI styles through emotion, which injects `<style>` elements at run time,
 * so styles need 'unsafe-inline' (a nonce would have to reach emotion's cache on every page); scripts stay
 * strict. The document viewer shows PDFs and pictures from blob: URLs, and pdf.js runs a worker and reads the
 * document it is given from its blob: URL; read-aloud plays blob: audio; avatars are data: URLs.
 */
function clientDirectives(inlineScripts: string[]): Directives {
  return {
    "default-src": ["'self'"],
    "script-src": ["'self'", ...inlineScripts.map(scriptHash)],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'", "blob:"],
    "media-src": ["'self'", "blob:"],
    "frame-src": ["'self'", "blob:"],
    "worker-src": ["'self'", "blob:"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
  };
}

const graphqlDirectives: Directives = {
  "default-src": ["'self'"],
  "script-src": ["'self'", "'unsafe-inline'", ...APOLLO_SCRIPTS],
  "style-src": ["'self'", "'unsafe-inline'", ...APOLLO_SCRIPTS, "https://fonts.googleapis.com"],
  "font-src": ["https://fonts.gstatic.com"],
  "img-src": ["'self'", "data:", "https://apollo-server-landing-page.cdn.apollographql.com"],
  "manifest-src": ["https://apollo-server-landing-page.cdn.apollographql.com"],
  "frame-src": APOLLO_FRAMES,
  "connect-src": ["'self'"],
  "object-src": ["'none'"],
  "base-uri": ["'self'"],
};

/** JSON, event streams and stored files: nothing in them may run, even when a browser is sent straight to one. */
export const API_POLICY = serialize({ "default-src": ["'none'"], "frame-ancestors": ["'none'"], sandbox: [] });

/**
 * Security headers on every answer of the server: a Content-Security-Policy, no MIME sniffing, no Referer (Cairn's
 * addresses carry share tokens and document ids, and nothing in Cairn needs it), and no framing except the share page.
 */
export function securityHeaders(options: SecurityHeaderOptions): RequestHandler {
  const framedNowhere = { "frame-ancestors": ["'none'"] };
  const pagePolicy = serialize({ ...clientDirectives(options.inlineScripts), ...framedNowhere });
  // Without a list the share page sets no frame-ancestors at all: `*` would leave out the browser extension's
  // chrome-extension: pages and local file: pages, which embed it too.
  const sharePolicy = serialize({
    ...clientDirectives(options.inlineScripts),
    ...(options.embedAllowedOrigins.length > 0 ? { "frame-ancestors": ["'self'", ...options.embedAllowedOrigins] } : {}),
  });
  const graphqlPolicy = serialize({ ...graphqlDirectives, ...framedNowhere });
  const isUnder = (path: string, prefix: string) => path === prefix || path.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`);

  return (req, res, next) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "no-referrer");
    const path = req.path.replace(/\/+$/, "") || "/";
    if (path === SHARE_PAGE_PATH) {
      res.setHeader("Content-Security-Policy", sharePolicy);
      return next();
    }
    res.setHeader("X-Frame-Options", "DENY");
    if (isUnder(path, options.graphqlPath)) res.setHeader("Content-Security-Policy", graphqlPolicy);
    else if (options.apiPrefixes.some((prefix) => isUnder(req.path, prefix))) res.setHeader("Content-Security-Policy", API_POLICY);
    else res.setHeader("Content-Security-Policy", pagePolicy);
    next();
  };
}
