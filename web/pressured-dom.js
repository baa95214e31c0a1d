// pressured-dom.js: elements that opt in become pressured regions, kept in step with layout in screen
// pixels, and the daemon's gestures for them come back as DOM events on the element (docs/web.md,
// "Events"). Where the viewport is on the screen is learned from touches seen both as DOM touches and as
// the daemon's contacts. Imported by pressured.js; touches nothing until attach() is called.

/** The DOM event each gesture arrives as on its element. */
import { Viewport, round } from "./pressured-viewport.js";

export const GESTURE_EVENTS = {
  peek: "pressured:peek", pop: "pressured:pop", dismiss: "pressured:dismiss",
  quickActions: "pressured:quickactions", longPress: "pressured:longpress",
};
/** The gestures that take their touch (docs/protocol.md, "Names"): a touch that got one does not also click. */
export const TAKES_A_TOUCH = new Set(["peek", "pop", "quickActions", "longPress"]);
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
    this.viewportPlace = new Viewport(options, (viewport) => {
      this._emit("viewport", viewport);
      this.schedule(); // the regions again, where the touches put them
    });
    this.learning = this.viewportPlace.learning;
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
    if (this.learning) this._listen(window, "touchstart", (e) => this._domTouch(e), { capture: true, passive: true });
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

  /** Where the viewport's top-left corner is on the screen, in CSS pixels: the `viewportOrigin` option,
   * else what touches taught (`viewport`), else the guess. */
  viewportOrigin() { return this.viewportPlace.origin(); }

  /** The origin guessed from the window's place and size, which a touch may correct. */
  guessedOrigin() { return this.viewportPlace.guess(); }

  /** What the module knows of the viewport: the origin it uses and where from (`option`, `touches`,
   * `guess`), the guess, the origin touches taught (null until they agreed) and whether that agrees with
   * the option or the guess (null until learned). */
  get viewport() { return this.viewportPlace.describe(); }

  /** A DOM touch start (one finger, nothing else down), to be paired with the daemon's `began`. */
  _domTouch(e) {
    if (e.changedTouches.length !== 1 || e.touches.length !== 1) return;
    const t = e.changedTouches[0];
    this._pair("dom", { x: t.clientX, y: t.clientY, t: e.timeStamp || now(), target: t.target });
  }

  /** Pairs a touch start seen one way with the one seen the other way (``Viewport.pair``); a pair settles
   * the daemon's contact on the element the browser saw the finger land on. */
  _pair(side, touch) {
    const pair = this.viewportPlace.pair(side, touch);
    const contact = pair && this.contacts.get(pair.daemon.key);
    if (contact) this._resolve(contact, this._entryAt(pair.dom.target), { x: pair.dom.x, y: pair.dom.y });
  }

  /** Settles which element a contact is for and delivers what was held for it. `client`: where the
   * browser saw the finger land (a paired DOM touch), which needs no viewport origin. */
  _resolve(contact, entry, client) {
    if (contact.resolved) return;
    contact.resolved = true;
    contact.entry = entry;
    if (client) Object.assign(contact, { byTouch: true, x: client.x, y: client.y });
    for (const m of contact.held.splice(0)) {
      if (m.type === "touch") this._deliverTouch(contact, m);
      else this._deliverGesture(contact, m);
    }
  }

  /** An event on the connection (an EventTarget; or the Electron preload's connection, with `emit`). */
  _emit(type, detail) {
    if (typeof this.connection.dispatchEvent === "function") this.connection.dispatchEvent(Object.assign(new Event(type), { detail }));
    else this.connection.emit?.(type, detail);
  }

  /** Screen pixels (the daemon's) to this page's client coordinates (CSS pixels). */
  toClient(screenX, screenY) { return this.viewportPlace.toClient(screenX, screenY); }

  /** Client coordinates to screen pixels. */
  toScreen(clientX, clientY) { return this.viewportPlace.toScreen(clientX, clientY); }

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

  /** A daemon touch. Until the viewport's origin is known, a contact's element is the one the browser saw
   * the finger land on (the DOM touch paired with it), since the regions may still sit where the guess put
   * them: its events wait for that pairing, at most the learning window; a contact the browser never saw
   * was not on this page. */
  _touch(m) {
    const key = `${m.device}:${m.contact}`;
    let contact = this.contacts.get(key);
    if (m.phase === "began") {
      const device = this.connection.devices?.find((d) => d.id === m.device);
      const pairs = this.learning && device?.kind !== "touchpad";
      const c = this.toClient(m.screenX, m.screenY);
      contact = { entry: null, resolved: false, held: [], beganAt: now(), x: c.x, y: c.y, acted: false, endedAt: null };
      this.contacts.set(key, contact);
      if (this.viewportPlace.known() || !pairs) this._resolve(contact, this._regionAt(m.screenX, m.screenY), null);
      else setTimeout(() => this._resolve(contact, null, null), this.learning.window);
      if (pairs) {
        const r = window.devicePixelRatio || 1;
        this._pair("daemon", { x: m.screenX / r, y: m.screenY / r, t: now(), key });
      }
    }
    if (!contact) return;
    if (contact.resolved) this._deliverTouch(contact, m);
    else contact.held.push(m);
  }

  _deliverTouch(contact, m) {
    if (contact.entry) {
      contact.entry.element.dispatchEvent(new CustomEvent("pressured:forcechange", {
        bubbles: true, detail: this._detail(m),
      }));
    }
    if (m.phase === "ended" || m.phase === "cancelled") {
      const key = `${m.device}:${m.contact}`;
      contact.endedAt = now();
      // Kept a moment for the click that may follow the lift, then forgotten.
      setTimeout(() => { if (this.contacts.get(key) === contact) this.contacts.delete(key); }, 2000);
    }
  }

  /** A gesture for one of our regions goes to its element; one outside every region to the hooks (link
   * previews), which say whether they took it. Only a taken gesture makes its touch "acted" (no click).
   * A contact placed by the browser's touch goes to that element (if it wants the gesture), whatever
   * region the daemon matched. */
  _gesture(m) {
    const contact = this.contacts.get(`${m.device}:${m.contact}`);
    if (contact && !contact.resolved) contact.held.push(m);
    else this._deliverGesture(contact, m);
  }

  _deliverGesture(contact, m) {
    let entry = m.region ? this.byRegion.get(m.region) : null;
    if (contact?.byTouch) entry = contact.entry && wants(contact.entry, m.type) ? contact.entry : null;
    let taken = false;
    if (entry) {
      entry.element.dispatchEvent(new CustomEvent(GESTURE_EVENTS[m.type], { bubbles: true, cancelable: true, detail: this._detail(m) }));
      taken = true;
    } else if (!m.region) {
      for (const hook of this.hooks) taken = hook(m, this) === true || taken;
    }
    if (!taken || !TAKES_A_TOUCH.has(m.type)) return;
    const key = `${m.device}:${m.contact}`;
    if (!contact) {
      const c = this.toClient(m.screenX, m.screenY);
      contact = { entry: null, resolved: true, held: [], beganAt: now(), x: c.x, y: c.y, endedAt: null };
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
        this._emit("clicksuppressed", { contact: key, target: e.target });
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

/** Whether a watched element asked for gestures of this type (its `wants`, or an icon's quick actions). */
function wants(entry, type) {
  if (type === "quickActions") return entry.wants.includes("quickActions") || Boolean(entry.app || entry.items);
  return entry.wants.includes(type === "longPress" ? "longPress" : "previews");
}

function now() { return performance.now(); }
