/** What is shared: an assistant, or a flow (RAGFlow's share page tells them apart by `from=agent`). */
export type SharedKind = "assistant" | "flow";

/** The share page of §1/§6; `embed=widget` is the compact look inside the floating widget. */
export function shareUrl(origin: string, sharedId: string, locale?: string, embed?: "widget", kind: SharedKind = "assistant"): string {
  const params = new URLSearchParams({ shared_id: sharedId });
  if (kind === "flow") params.set("from", "agent");
  if (locale) params.set("locale", locale);
  if (embed) params.set("embed", embed);
  return `${origin}/chat/share?${params.toString()}`;
}

const escapeAttribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

export function iframeSnippet(origin: string, sharedId: string, locale?: string, kind: SharedKind = "assistant"): string {
  return `<iframe
  src="${escapeAttribute(shareUrl(origin, sharedId, locale, undefined, kind))}"
  style="width: 100%; height: 100%; min-height: 600px; border: 0"
  allow="clipboard-write; autoplay"
></iframe>`;
}

export function widgetSnippet(origin: string, sharedId: string, locale?: string, kind: SharedKind = "assistant"): string {
  const fromAttribute = kind === "flow" ? ` data-from="agent"` : "";
  const localeAttribute = locale ? ` data-locale="${escapeAttribute(locale)}"` : "";
  return `<script src="${origin}/embed/chat-widget.js" data-shared-id="${escapeAttribute(sharedId)}"${fromAttribute}${localeAttribute} async></script>`;
}

/** A Manifest V3 extension that shows the share page in the browser's side panel: three files in one folder. */
export function extensionFiles(origin: string, sharedId: string, assistantName: string, locale?: string, kind: SharedKind = "assistant"): { name: string; text: string }[] {
  const manifest = {
    manifest_version: 3,
    name: assistantName,
    version: "1.0.0",
    description: `${assistantName} in the side panel`,
    action: { default_title: assistantName },
    side_panel: { default_path: "sidepanel.html" },
    permissions: ["sidePanel"],
    background: { service_worker: "background.js" },
  };
  const title = assistantName.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  return [
    { name: "manifest.json", text: JSON.stringify(manifest, null, 2) },
    {
      name: "sidepanel.html",
      text: `<!doctype html>
<html>
  <head>
    <meta charset="utf-8" />
    <title>${title}</title>
    <style>html, body { margin: 0; height: 100%; } iframe { display: block; width: 100%; height: 100%; border: 0; }</style>
  </head>
  <body>
    <iframe src="${escapeAttribute(shareUrl(origin, sharedId, locale, undefined, kind))}" allow="clipboard-write; autoplay"></iframe>
  </body>
</html>`,
    },
    { name: "background.js", text: "chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true });" },
  ];
}
