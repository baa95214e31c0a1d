// pressured-links.js: web view link peek and pop, as iOS's allowsLinkPreview gives web views (docs/web.md,
// "Link previews"). A firm press on a link shows its destination over the page; pressing on pops
// (navigates, as a tap would); lifting closes it; swiping up shows the link's actions.

/**
 * Turns link previews on for `page` (from attach()). Options: `scope` (element or selector; default the
 * whole document), `origins` (destinations shown in an iframe besides this page's own origin),
 * `preview(link)` (an Element to show instead, or null for the built-in one), `actions(link)` (the swipe-up
 * menu: [{title, run}]). A `pressured:peek` listener on the link may preventDefault() to show nothing.
 */
export function enableLinkPreviews(page, options = {}) {
  const state = { contact: null, link: null, overlay: null, menu: false };
  const origins = new Set([location.origin, ...(options.origins ?? [])]);

  const inScope = (link) => {
    const scope = typeof options.scope === "string" ? document.querySelector(options.scope) : options.scope;
    return !scope || scope.contains(link);
  };

  const close = () => {
    state.overlay?.remove();
    Object.assign(state, { contact: null, link: null, overlay: null, menu: false });
  };

  const fire = (link, type, m) => {
    const c = page.toClient(m.screenX, m.screenY);
    return link.dispatchEvent(new CustomEvent(type, {
      bubbles: true, cancelable: true, detail: { ...m, clientX: c.x, clientY: c.y, href: link.href },
    }));
  };

  const navigate = (link) => {
    page.ownClick = true;  // our own click is not the finger's: never suppressed
    try { link.click(); } finally { page.ownClick = false; }
  };

  const show = (link) => {
    const overlay = document.createElement("div");
    overlay.className = "pressured-link-preview";
    overlay.setAttribute("role", "dialog");
    Object.assign(overlay.style, {
      position: "fixed", inset: "8%", zIndex: 2147483647, background: "#fff", borderRadius: "14px",
      boxShadow: "0 12px 48px rgba(0,0,0,.45)", overflow: "hidden", display: "flex", flexDirection: "column",
    });
    const custom = options.preview?.(link);
    if (custom) {
      overlay.append(custom);
    } else if (origins.has(new URL(link.href, location.href).origin)) {
      const frame = document.createElement("iframe");
      frame.src = link.href;
      // Another allowed origin runs sandboxed in its own origin; this page's own is trusted as the page is
      // (a sandbox with scripts and the parent's origin could lift itself anyway).
      if (new URL(link.href, location.href).origin !== location.origin) frame.setAttribute("sandbox", "allow-same-origin allow-scripts");
      Object.assign(frame.style, { border: "0", flex: "1", pointerEvents: "none" });
      overlay.append(frame);
    } else {
      const card = document.createElement("div");
      card.style.padding = "24px";
      card.style.font = "16px system-ui, sans-serif";
      card.textContent = link.textContent.trim() || link.href;
      const url = document.createElement("div");
      url.style.color = "#666";
      url.textContent = link.href;
      card.append(url);
      overlay.append(card);
    }
    document.body.append(overlay);
    return overlay;
  };

  const showActions = (link) => {
    const actions = options.actions?.(link) ?? [
      { title: "Open", run: () => navigate(link) },
      { title: "Copy Link", run: () => navigator.clipboard?.writeText(link.href) },
    ];
    const menu = document.createElement("div");
    menu.className = "pressured-link-actions";
    Object.assign(menu.style, { display: "flex", flexDirection: "column", borderTop: "1px solid #ddd" });
    for (const action of actions) {
      const button = document.createElement("button");
      button.textContent = action.title;
      Object.assign(button.style, { font: "17px system-ui, sans-serif", padding: "14px", border: "0", background: "none" });
      button.addEventListener("click", () => { close(); action.run(); });
      menu.append(button);
    }
    state.overlay.append(menu);
    state.menu = true;
    // The menu stays after the lift; a tap outside it closes it.
    setTimeout(() => document.addEventListener("pointerdown", (e) => { if (!state.overlay?.contains(e.target)) close(); }, { once: true }), 0);
  };

  /** True when the gesture was on a link this took (its touch then does not also click). */
  const hook = (m) => {
    const key = `${m.device}:${m.contact}`;
    if (m.type === "peek") {
      const c = page.toClient(m.screenX, m.screenY);
      const link = document.elementFromPoint(c.x, c.y)?.closest("a[href]");
      if (!link || !inScope(link)) return false;
      close();
      if (!fire(link, "pressured:peek", m)) return true;  // the page cancelled (or showed its own preview)
      Object.assign(state, { contact: key, link, overlay: show(link) });
      return true;
    }
    if (state.contact !== key) return false;
    const link = state.link;
    if (m.type === "pop") {
      close();
      if (fire(link, "pressured:pop", m)) navigate(link);
    } else if (m.type === "quickActions" && !state.menu) {
      if (fire(link, "pressured:quickactions", m)) showActions(link);
    } else if (m.type === "dismiss") {
      fire(link, "pressured:dismiss", m);
      if (!state.menu) close();
      else state.contact = null;
    }
    return true;
  };
  page.hooks.push(hook);
  return { disable: () => { page.hooks.splice(page.hooks.indexOf(hook), 1); close(); } };
}
