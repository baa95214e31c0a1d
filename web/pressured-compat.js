// pressured-compat.js: opt-in layers for code written for other platforms (docs/web.md, "Compatibility").
// Off by default: some drag-and-drop libraries cancel a drag on webkitmouseforcechanged.

/** WebKit's force levels (Safari on a Force Touch trackpad). */
export const WEBKIT_FORCE_AT_MOUSE_DOWN = 1;
export const WEBKIT_FORCE_AT_FORCE_MOUSE_DOWN = 2;

/** A page's error in one of the layers' callbacks: reported as an uncaught one would be (the window's
 * `error` event, the console), and the layer goes on with the rest of the touch. */
function report(error) {
  if (typeof reportError === "function") reportError(error);
  else console.error(error);
}

/** Per-contact force progress on the watched elements of `page`, as a stream of phases for the layers. A
 * handler that throws is reported; the touch's later phases still come and its end still forgets it. */
function followContacts(page, handlers) {
  const contacts = new Map();
  const call = (phase, c, m) => { try { handlers[phase](c, m); } catch (error) { report(error); } };
  const offTouch = page.connection.on("touch", (m) => {
    const key = `${m.device}:${m.contact}`;
    const element = page.contacts.get(key)?.entry?.element;
    if (m.phase === "began" && element) {
      const c = { element, stage: 0, deep: false };
      contacts.set(key, c);
      call("began", c, m);
    }
    const c = contacts.get(key);
    if (!c) return;
    if (m.phase === "moved") call("changed", c, m);
    if (m.phase === "ended" || m.phase === "cancelled") {
      contacts.delete(key);
      call("ended", c, m);
    }
  });
  const offGesture = page.connection.on("gesture", (m) => {
    const c = contacts.get(`${m.device}:${m.contact}`);
    if (!c) return;
    if (m.type === "peek") { c.stage = 1; call("deep", c, m); }
    if (m.type === "pop") c.stage = 2;
  });
  return () => { offTouch(); offGesture(); };
}

/**
 * Dispatches WebKit's Force Touch events on watched elements: `webkitmouseforcewillbegin` when a touch
 * begins, `webkitmouseforcechanged` as its force changes, `webkitmouseforcedown` at the peek,
 * `webkitmouseforceup` when a touch that went down ends. `webkitForce` runs from 1
 * (WEBKIT_FORCE_AT_MOUSE_DOWN) to 2 (WEBKIT_FORCE_AT_FORCE_MOUSE_DOWN, the peek) and on to 3 (the pop), by
 * the daemon's progress towards each threshold; `webkitmouseforceup` repeats the touch's last level (the
 * daemon's `ended` carries no progress: the touch is over, not at the next threshold).
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
    changed: (c, m) => { c.level = force(c, m); fire(c, "webkitmouseforcechanged", m, c.level); },
    deep: (c, m) => { c.deep = true; c.level = WEBKIT_FORCE_AT_FORCE_MOUSE_DOWN; fire(c, "webkitmouseforcedown", m, c.level); },
    ended: (c, m) => { if (c.deep) fire(c, "webkitmouseforceup", m, c.stage === 2 ? 3 : c.level); },
  });
  return { disable: off };
}

/**
 * A Pressure.js-style API: `pressure(page).set(element, {start, change, startDeepPress, endDeepPress, end,
 * unsupported})`, each called with `this` the element. `change(force, event)` gets force from 0 to 1 (of the
 * device's maximumPossibleForce); the deep press is the peek and ends at the lift. `unsupported()` is called
 * once when force is unavailable (`ForceTouch = off`, no device with force) or the daemon cannot be
 * reached, and once more each time force comes back and goes away again. The element is watched (a region
 * wanting previews) if it was not already. A callback that throws is reported and the rest still runs.
 */
export function pressure(page) {
  const targets = new Map();
  const call = (element, name, ...args) => {
    const f = targets.get(element)?.[name];
    if (typeof f !== "function") return;
    try { f.apply(element, args); } catch (error) { report(error); }
  };
  followContacts(page, {
    began: (c, m) => call(c.element, "start", m),
    changed: (c, m) => call(c.element, "change", m.maximumPossibleForce > 0 ? Math.min(1, m.force / m.maximumPossibleForce) : 0, m),
    deep: (c, m) => { c.deep = true; call(c.element, "startDeepPress", m); },
    ended: (c, m) => {
      if (c.deep) call(c.element, "endDeepPress", m);
      call(c.element, "end", m);
    },
  });
  // Whether force can be had: null until the daemon's hello or the first failed connection, then false
  // (unsupported told once) or true (told again on the next loss).
  // (A Connection holds `settings` and `devices`; the Electron preload's connection gives them by `state()`.)
  const connection = page.connection;
  const state = () => typeof connection.state === "function" ? connection.state() : connection;
  let supported = null;
  const check = (reachable) => {
    const s = state();
    const now = reachable && s.settings?.forceTouch !== false && (s.devices ?? []).some((d) => d.forceCapability === "available");
    if (now === supported) return;
    supported = now;
    if (!now) for (const element of targets.keys()) call(element, "unsupported");
  };
  for (const type of ["hello", "device", "settings"]) connection.on(type, () => check(true));
  connection.on("close", () => check(false));
  if (state().connected && state().hello) check(true);
  return {
    set(target, handlers) {
      const elements = typeof target === "string" ? document.querySelectorAll(target) : target instanceof Element ? [target] : target;
      for (const element of elements) {
        targets.set(element, handlers);
        if (!page.watched.has(element)) page.watch(element, { wants: ["previews"] });
        if (supported === false) call(element, "unsupported");
      }
    },
  };
}
