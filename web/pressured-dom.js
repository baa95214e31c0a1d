// pressured-dom.js: elements that opt in become pressured regions, kept in step with layout in screen
// pixels, and the daemon's gestures for them come back as DOM events on the element (docs/web.md,
// "Events"). Imported by pressured.js; touches nothing until attach() is called.

const EVENT_NAMES = {
  peek: "pressured:peek", pop: "pressured:pop", dismiss: "pressured:dismiss",
  quickActions: "pressured:quickactions", longPress: "pressured:longpress",
};
const ACTING = new Set(["peek", "pop", "quickActions", "longPress"]);
const DEFAULT_WANTS = ["previews", "longPress"];

let nextRegion = 1;

/**
 * Binds a Connection to this document: every element with `data-pressured` (and every element passed to
 * `watch`) becomes a region; its gestures arrive as `pressured:*` CustomEvents; a touch that peeked,
 * popped, long-pressed or showed quick actions does not also click.
 */
export function attach(connection, options = {}) {
  return new Page(connection, options);
}

class Page {
  constructor(connection, options) {
    this.connection = connection;
    this.options = options;
    this.root = options.root ?? document;
    this.radius = options.matchRadius ?? 48;
    this.watched = new Map();   // element -> entry
    this.byRegion = new Map();  // region id -> entry
    this.contacts = new Map();  // "device:contact" -> {entry, began, beganAt, acted, endedAt, x, y}
    this.pointers = [];         // recent browser pointers: {id, x, y, downAt, upAt}
    this.hooks = [];            // (message, page) => void, for gestures no watched element claimed
    this._scheduled = false;
    this._off = [];

    this._off.push(connection.on("touch", (m) => this._touch(m)));
    this._off.push(connection.on("gesture", (m) => this._gesture(m)));

    const update = () => this.schedule();
    this._resize = new ResizeObserver(update);
    this._visibility = new IntersectionObserver((records) => {
      for (const r of records) {
        const entry = this.watched.get(r.target);
        if (entry) entry.intersecting = r.isIntersecting;
      }
      this.schedule();
    });
    this._mutations = new MutationObserver(() => this.scan());
    this._mutations.observe(this.root.documentElement ?? this.root, {
      subtree: true, childList: true, attributes: true,
      attributeFilter: ["data-pressured", "data-pressured-z", "data-pressured-app", "data-pressured-items"],
    });
    this._listen(window, "scroll", update, { capture: true, passive: true });
    this._listen(window, "resize", update, { passive: true });
    this._listen(document, "visibilitychange", update);
    if (options.suppressClicks !== false) {
      this._listen(window, "pointerdown", (e) => this._pointerDown(e), { capture: true });
      this._listen(window, "pointerup", (e) => this._pointerUp(e), { capture: true });
      this._listen(window, "click", (e) => this._click(e), { capture: true });
    }
    if (options.nativeLongPressMenu === false) {
      this._listen(window, "contextmenu", (e) => { if (this._entryAt(e.target)) e.preventDefault(); }, { capture: true });
    }
    this.scan();
  }

  _listen(target, type, listener, opts) {
    target.addEventListener(type, listener, opts);
    this._off.push(() => target.removeEventListener(type, listener, opts));
  }

  /** Watches an element: `wants` (previews, quickActions, longPress), `z`, `app` (an icon), `items`. */
  watch(element, options = {}) {
    let entry = this.watched.get(element);
    if (!entry) {
      entry = { element, id: `dom:${nextRegion++}`, intersecting: true, sent: null, fromAttribute: false };
      this.watched.set(element, entry);
      this.byRegion.set(entry.id, entry);
      this._resize.observe(element);
      this._visibility.observe(element);
      if (this.options.nativeLongPressMenu === false) {
        element.style.webkitTouchCallout = "none";
        element.style.webkitUserSelect = "none";
        element.style.userSelect = "none";
      }
    }
    entry.wants = options.wants ?? DEFAULT_WANTS;
    entry.z = options.z ?? 0;
    entry.app = options.app;
    entry.items = options.items;
    entry.sent = null;
    this.schedule();
    return { unwatch: () => this.unwatch(element) };
  }

  unwatch(element) {
    const entry = this.watched.get(element);
    if (!entry) return;
    this.watched.delete(element);
    this.byRegion.delete(entry.id);
    this._resize.unobserve(element);
    this._visibility.unobserve(element);
    if (entry.sent) this.connection.removeRegion(entry.id);
  }

  /** Finds `[data-pressured]` elements under the root; forgets attribute-watched ones that left. */
  scan() {
    const found = new Set(this.root.querySelectorAll("[data-pressured]"));
    for (const [element, entry] of this.watched) {
      if (entry.fromAttribute && (!found.has(element) || !element.isConnected)) this.unwatch(element);
    }
    for (const element of found) {
      const words = element.dataset.pressured.split(/\s+/).filter(Boolean);
      let items;
      try { items = element.dataset.pressuredItems ? JSON.parse(element.dataset.pressuredItems) : undefined; } catch { items = undefined; }
      const options = {
        wants: words.length ? words : DEFAULT_WANTS, z: Number(element.dataset.pressuredZ ?? 0),
        app: element.dataset.pressuredApp, items,
      };
      const entry = this.watched.get(element);
      const key = JSON.stringify(options);
      if (entry && entry.attributeKey === key) continue;
      this.watch(element, options);
      const e = this.watched.get(element);
      e.fromAttribute = true;
      e.attributeKey = key;
    }
    this.schedule();
  }

  /** Where the viewport's top-left corner is on the screen, in CSS pixels. */
  viewportOrigin() {
    if (this.options.viewportOrigin) return this.options.viewportOrigin;
    // Inside same-origin iframes, add each frame's place in its parent, up to the top window.
    let x = 0, y = 0, w = window;
    try {
      while (w !== w.parent && w.frameElement) {
        const f = w.frameElement, r = f.getBoundingClientRect();
        x += r.left + f.clientLeft;
        y += r.top + f.clientTop;
        w = w.parent;
      }
    } catch { /* a cross-origin parent: pass viewportOrigin */ }
    // A kiosk window fills the screen: all of this is 0. Elsewhere assume side borders of equal width and
    // the browser's own bars on top (docs/web.md says what a window that is not full screen needs).
    const border = Math.max(0, (w.outerWidth - w.innerWidth) / 2);
    return { x: x + w.screenX + border, y: y + w.screenY + Math.max(0, w.outerHeight - w.innerHeight - border) };
  }

  /** Screen pixels (the daemon's) to this page's client coordinates (CSS pixels). */
  toClient(screenX, screenY) {
    const o = this.viewportOrigin(), r = window.devicePixelRatio || 1;
    return { x: screenX / r - o.x, y: screenY / r - o.y };
  }

  /** Client coordinates to screen pixels. */
  toScreen(clientX, clientY) {
    const o = this.viewportOrigin(), r = window.devicePixelRatio || 1;
    return { x: (clientX + o.x) * r, y: (clientY + o.y) * r };
  }

  schedule() {
    if (this._scheduled) return;
    this._scheduled = true;
    requestAnimationFrame(() => { this._scheduled = false; this.update(); });
  }

  /** Sends each region whose place, size or visibility changed since it was last sent. */
  update() {
    const hidden = document.visibilityState === "hidden";
    for (const entry of this.watched.values()) {
      const box = entry.element.getBoundingClientRect();
      const visible = !hidden && entry.intersecting && entry.element.isConnected && box.width > 0 && box.height > 0;
      if (!visible) {
        if (entry.sent) { this.connection.removeRegion(entry.id); entry.sent = null; }
        continue;
      }
      const a = this.toScreen(box.left, box.top), b = this.toScreen(box.right, box.bottom);
      const region = {
        region: entry.id, x: round(a.x), y: round(a.y), width: round(b.x - a.x), height: round(b.y - a.y),
        z: entry.z, wants: entry.wants,
        ...(entry.app ? { app: entry.app } : {}), ...(entry.items ? { items: entry.items } : {}),
      };
      const key = JSON.stringify(region);
      if (entry.sent === key) continue;
      entry.sent = key;
      entry.screenRect = { x: region.x, y: region.y, width: region.width, height: region.height, z: region.z };
      this.connection.setRegion(region).catch(() => {});
    }
  }

  /** The topmost watched region containing a screen point, as the daemon decides (higher z, then later). */
  _regionAt(x, y) {
    let best = null;
    for (const entry of this.watched.values()) {
      const r = entry.screenRect;
      if (!entry.sent || !r || x < r.x || y < r.y || x >= r.x + r.width || y >= r.y + r.height) continue;
      if (!best || r.z >= best.screenRect.z) best = entry;
    }
    return best;
  }

  _entryAt(node) {
    for (let n = node; n; n = n.parentElement) if (this.watched.has(n)) return this.watched.get(n);
    return null;
  }

  _detail(m) {
    const c = this.toClient(m.screenX ?? 0, m.screenY ?? 0);
    return { ...m, clientX: c.x, clientY: c.y };
  }

  _touch(m) {
    const key = `${m.device}:${m.contact}`;
    let contact = this.contacts.get(key);
    if (m.phase === "began") {
      const c = this.toClient(m.screenX, m.screenY);
      contact = { entry: this._regionAt(m.screenX, m.screenY), beganAt: now(), x: c.x, y: c.y, acted: false, endedAt: null };
      this.contacts.set(key, contact);
    }
    if (!contact) return;
    if (contact.entry) {
      contact.entry.element.dispatchEvent(new CustomEvent("pressured:forcechange", {
        bubbles: true, detail: this._detail(m),
      }));
    }
    if (m.phase === "ended" || m.phase === "cancelled") {
      contact.endedAt = now();
      // Kept a moment for the click that may follow the lift, then forgotten.
      setTimeout(() => { if (this.contacts.get(key) === contact) this.contacts.delete(key); }, 2000);
    }
  }

  /** A gesture for one of our regions goes to its element; one outside every region to the hooks (link
   * previews), which say whether they took it. Only a taken gesture makes its touch "acted" (no click). */
  _gesture(m) {
    const entry = m.region ? this.byRegion.get(m.region) : null;
    let taken = false;
    if (entry) {
      entry.element.dispatchEvent(new CustomEvent(EVENT_NAMES[m.type], { bubbles: true, cancelable: true, detail: this._detail(m) }));
      taken = true;
    } else if (!m.region) {
      for (const hook of this.hooks) taken = hook(m, this) === true || taken;
    }
    if (!taken || !ACTING.has(m.type)) return;
    const key = `${m.device}:${m.contact}`;
    let contact = this.contacts.get(key);
    if (!contact) {
      const c = this.toClient(m.screenX, m.screenY);
      contact = { entry: null, beganAt: now(), x: c.x, y: c.y, endedAt: null };
      this.contacts.set(key, contact);
    }
    contact.acted = true;
  }

  _pointerDown(e) {
    const t = now();
    this.pointers = this.pointers.filter((p) => t - p.downAt < 10000);
    this.pointers.push({ id: e.pointerId, x: e.clientX, y: e.clientY, downAt: t, upAt: null });
  }

  _pointerUp(e) {
    const p = this.pointers.findLast((q) => q.id === e.pointerId && q.upAt === null);
    if (p) p.upAt = now();
  }

  /** A click from a pointer that matches a contact that acted (peek, pop, long press, quick actions) is
   * the same finger: the daemon already answered it, so the click does not happen. */
  _click(e) {
    if (this.ownClick) return;
    const t = now();
    const pointer = this.pointers.findLast((p) => p.upAt !== null && t - p.upAt < 1000);
    for (const [key, c] of this.contacts) {
      if (!c.acted || c.clicked) continue;
      const near = Math.hypot(c.x - (pointer?.x ?? e.clientX), c.y - (pointer?.y ?? e.clientY)) <= this.radius;
      const inTime = pointer ? Math.abs(c.beganAt - pointer.downAt) < 1000 : c.endedAt === null || t - c.endedAt < 1000;
      if (near && inTime) {
        c.clicked = true;
        e.preventDefault();
        e.stopImmediatePropagation();
        if (pointer) this.pointers.splice(this.pointers.indexOf(pointer), 1);
        this.connection.dispatchEvent(Object.assign(new Event("clicksuppressed"), { detail: { contact: key, target: e.target } }));
        return;
      }
    }
  }

  /** Stops watching everything and removes the page's regions. */
  detach() {
    for (const element of [...this.watched.keys()]) this.unwatch(element);
    for (const off of this._off) off();
    this._resize.disconnect();
    this._visibility.disconnect();
    this._mutations.disconnect();
  }
}

function round(v) { return Math.round(v * 100) / 100; }
function now() { return performance.now(); }
