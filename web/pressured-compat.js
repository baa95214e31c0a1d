// pressured-compat.js: opt-in layers for code written for other platforms (docs/web.md, "Compatibility").
// Off by default: some drag-and-drop libraries cancel a drag on webkitmouseforcechanged.

/** WebKit's force levels (Safari on a Force Touch trackpad). */
export const WEBKIT_FORCE_AT_MOUSE_DOWN = 1;
export const WEBKIT_FORCE_AT_FORCE_MOUSE_DOWN = 2;

/** Per-contact force progress on the watched elements of `page`, as a stream of phases for the layers. */
function followContacts(page, handlers) {
  const contacts = new Map();
  const offTouch = page.connection.on("touch", (m) => {
    const key = `${m.device}:${m.contact}`;
    const element = page.contacts.get(key)?.entry?.element;
    if (m.phase === "began" && element) {
      const c = { element, stage: 0, deep: false };
      contacts.set(key, c);
      handlers.began(c, m);
    }
    const c = contacts.get(key);
    if (!c) return;
    if (m.phase === "moved") handlers.changed(c, m);
    if (m.phase === "ended" || m.phase === "cancelled") {
      handlers.ended(c, m);
      contacts.delete(key);
    }
  });
  const offGesture = page.connection.on("gesture", (m) => {
    const c = contacts.get(`${m.device}:${m.contact}`);
    if (!c) return;
    if (m.type === "peek") { c.stage = 1; handlers.deep(c, m, true); }
    if (m.type === "pop") c.stage = 2;
  });
  return () => { offTouch(); offGesture(); };
}

/**
 * Dispatches WebKit's Force Touch events on watched elements: `webkitmouseforcewillbegin` when a touch
 * begins, `webkitmouseforcechanged` as its force changes, `webkitmouseforcedown` at the peek,
 * `webkitmouseforceup` when a touch that went down ends. `webkitForce` runs from 1
 * (WEBKIT_FORCE_AT_MOUSE_DOWN) to 2 (WEBKIT_FORCE_AT_FORCE_MOUSE_DOWN, the peek) and on to 3 (the pop), by
 * the daemon's progress towards each threshold.
 */
export function enableWebKitForceEvents(page) {
  if (typeof MouseEvent !== "undefined") {
    MouseEvent.WEBKIT_FORCE_AT_MOUSE_DOWN ??= WEBKIT_FORCE_AT_MOUSE_DOWN;
    MouseEvent.WEBKIT_FORCE_AT_FORCE_MOUSE_DOWN ??= WEBKIT_FORCE_AT_FORCE_MOUSE_DOWN;
  }
  const force = (c, m) => c.stage === 2 ? 3 : 1 + c.stage + Math.min(1, m.progress ?? (c.stage ? 1 : 0));
  const fire = (c, type, m, value) => {
    const p = page.toClient(m.screenX, m.screenY);
    const e = new MouseEvent(type, { bubbles: true, cancelable: true, clientX: p.x, clientY: p.y });
    Object.defineProperty(e, "webkitForce", { value });
    c.element.dispatchEvent(e);
  };
  const off = followContacts(page, {
    began: (c, m) => fire(c, "webkitmouseforcewillbegin", m, WEBKIT_FORCE_AT_MOUSE_DOWN),
    changed: (c, m) => fire(c, "webkitmouseforcechanged", m, force(c, m)),
    deep: (c, m) => { c.deep = true; fire(c, "webkitmouseforcedown", m, WEBKIT_FORCE_AT_FORCE_MOUSE_DOWN); },
    ended: (c, m) => { if (c.deep) fire(c, "webkitmouseforceup", m, force(c, m)); },
  });
  return { disable: off };
}

/**
 * A Pressure.js-style API: `pressure(page).set(element, {start, change, startDeepPress, endDeepPress, end})`.
 * `change(force, event)` gets force from 0 to 1 (of the device's maximumPossibleForce); the deep press is
 * the peek. The element is watched (a region wanting previews) if it was not already.
 */
export function pressure(page) {
  const targets = new Map();
  followContacts(page, {
    began: (c, m) => targets.get(c.element)?.start?.(m),
    changed: (c, m) => targets.get(c.element)?.change?.(m.maximumPossibleForce > 0 ? Math.min(1, m.force / m.maximumPossibleForce) : 0, m),
    deep: (c, m) => { c.deep = true; targets.get(c.element)?.startDeepPress?.(m); },
    ended: (c, m) => {
      const t = targets.get(c.element);
      if (c.deep) t?.endDeepPress?.(m);
      t?.end?.(m);
    },
  });
  return {
    set(target, handlers) {
      const elements = typeof target === "string" ? document.querySelectorAll(target) : target instanceof Element ? [target] : target;
      for (const element of elements) {
        targets.set(element, handlers);
        if (!page.watched.has(element)) page.watch(element, { wants: ["previews"] });
      }
    },
  };
}
