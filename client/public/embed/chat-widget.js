/*
 * Cairn's floating chat widget: a bubble at the bottom right that opens the shared chat of an assistant, or of a
 * flow with data-from="agent" (RAGFlow's share page parameter).
 *
 *   <script src="https://cairn.example.com/embed/chat-widget.js" data-shared-id="<shared id>" async></script>
 *
 * Optional: data-locale="en|zh|zh-TRADITIONAL|id|es", data-from="agent". No dependencies; everything it adds is prefixed cairn-chat-.
 */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script) {
    // With async the script may run after currentScript is cleared: find the tag by its shared id attribute.
    var candidates = document.querySelectorAll("script[data-shared-id]");
    script = candidates[candidates.length - 1];
  }
  if (!script || window.__cairnChatWidget) return;
  var sharedId = script.getAttribute("data-shared-id");
  if (!sharedId) {
    console.warn("[cairn] chat-widget.js needs a data-shared-id attribute.");
    return;
  }
  window.__cairnChatWidget = true;

  var origin = new URL(script.src, window.location.href).origin;
  var query = "shared_id=" + encodeURIComponent(sharedId) + "&embed=widget";
  var from = script.getAttribute("data-from");
  if (from) query += "&from=" + encodeURIComponent(from);
  var locale = script.getAttribute("data-locale");
  if (locale) query += "&locale=" + encodeURIComponent(locale);
  var chatUrl = origin + "/chat/share?" + query;

  var BRAND = "#1f7591";
  var CHAT_ICON =
    '<svg xmlns="http://www.w3.org/2000/svg" width="26" height="26" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z"/></svg>';
  var CLOSE_ICON =
    '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M18 6 6 18"/><path d="m6 6 12 12"/></svg>';

  function style(element, rules) {
    for (var key in rules) element.style.setProperty(key, rules[key]);
  }

  var frame = null;
  var open = false;

  var button = document.createElement("button");
  button.type = "button";
  button.id = "cairn-chat-bubble";
  button.setAttribute("aria-label", "Chat");
  button.setAttribute("aria-expanded", "false");
  button.innerHTML = CHAT_ICON;
  style(button, {
    position: "fixed",
    right: "20px",
    bottom: "20px",
    width: "56px",
    height: "56px",
    "border-radius": "50%",
    border: "0",
    padding: "0",
    margin: "0",
    cursor: "pointer",
    background: BRAND,
    color: "#fff",
    display: "flex",
    "align-items": "center",
    "justify-content": "center",
    "box-shadow": "0 6px 20px rgba(15, 42, 55, 0.28)",
    "z-index": "2147483647",
    transition: "transform 0.15s ease",
  });
  button.addEventListener("mouseenter", function () {
    button.style.transform = "scale(1.06)";
  });
  button.addEventListener("mouseleave", function () {
    button.style.transform = "";
  });

  function createFrame() {
    var element = document.createElement("iframe");
    element.id = "cairn-chat-frame";
    element.title = "Chat";
    element.src = chatUrl;
    element.setAttribute("allow", "clipboard-write; autoplay");
    style(element, {
      position: "fixed",
      right: "20px",
      bottom: "88px",
      width: "min(400px, calc(100vw - 40px))",
      height: "min(620px, calc(100vh - 120px))",
      border: "1px solid rgba(0, 0, 0, 0.08)",
      "border-radius": "14px",
      "box-shadow": "0 12px 40px rgba(15, 42, 55, 0.25)",
      background: "#fff",
      "z-index": "2147483647",
      display: "none",
    });
    document.body.appendChild(element);
    return element;
  }

  function toggle() {
    open = !open;
    // The page is loaded on the first opening only, and kept afterwards so the conversation survives closing.
    if (!frame) frame = createFrame();
    frame.style.display = open ? "block" : "none";
    button.innerHTML = open ? CLOSE_ICON : CHAT_ICON;
    button.setAttribute("aria-expanded", String(open));
  }

  button.addEventListener("click", toggle);

  function mount() {
    document.body.appendChild(button);
  }
  if (document.body) mount();
  else document.addEventListener("DOMContentLoaded", mount);
})();
