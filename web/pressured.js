// pressured.js: force and force gestures from pressured, for web pages (over pressured-web's WebSocket)
// and for Node or Electron's main process (over the daemon's Unix socket). An ES module with no
// dependencies; the DOM integration, link previews and compatibility layers are in the modules beside it
// and re-exported here. The protocol is docs/protocol.md; the events and options are docs/web.md.
//
//   import { connect, attach } from "/pressured.js";   // served by pressured-web from its own origin
//   const pressured = connect();                        // ws://<this origin>/pressured, reconnecting
//   const page = attach(pressured);                     // elements with data-pressured become regions
//   element.addEventListener("pressured:peek", (e) => show(e.detail));

export { attach } from "./pressured-dom.js";
export { enableLinkPreviews } from "./pressured-links.js";
export { enableWebKitForceEvents, pressure, WEBKIT_FORCE_AT_MOUSE_DOWN, WEBKIT_FORCE_AT_FORCE_MOUSE_DOWN } from "./pressured-compat.js";

/** The protocol version this module speaks (the daemon's `hello` says its own). */
export const PROTOCOL = 1;

/** The gestures' `type`s (docs/protocol.md, "Names"): each is also dispatched as a `gesture` event. */
export const GESTURES = ["peek", "pop", "dismiss", "quickActions", "longPress"];

/** An `error` answer from the daemon or the bridge; `code` is the wire code (`not-permitted`, ...). */
export class PressuredError extends Error {
  constructor(code, message, fatal = false) {
    super(`${code}: ${message}`);
    this.name = "PressuredError";
    this.code = code;
    this.fatal = fatal;
  }
}

const isBrowser = typeof window !== "undefined" && typeof window.document !== "undefined";

/** The bridge's WebSocket URL: beside this module when it was served by pressured-web, else this page's origin. */
function defaultURL() {
  const base = new URL("./pressured", import.meta.url.startsWith("http") ? import.meta.url : location.href);
  base.protocol = base.protocol === "https:" ? "wss:" : "ws:";
  base.pathname = "/pressured";
  base.search = "";
  return base.href;
}

/** A WebSocket as a line transport: one message, one JSON line. */
function webSocketTransport(options, handlers) {
  const protocols = ["pressured.v1"];
  if (options.token) protocols.push(`pressured-token.${options.token}`);
  const WS = options.WebSocket ?? globalThis.WebSocket;
  const ws = new WS(options.url ?? defaultURL(), protocols);
  ws.onopen = () => handlers.open();
  ws.onmessage = (e) => handlers.line(typeof e.data === "string" ? e.data : String(e.data));
  ws.onclose = (e) => handlers.close(e.code, e.reason);
  ws.onerror = () => {}; // a close always follows, with the code
  return {
    send: (line) => ws.send(line),
    close: () => ws.close(1000),
    get bufferedAmount() { return ws.bufferedAmount; },
  };
}

/** The daemon's Unix socket (Node, Electron's main process): newline-separated JSON. */
function unixTransport(options, handlers) {
  let socket = null;
  let closed = false;
  let pending = "";
  import("node:net").then((net) => {
    if (closed) return;
    socket = net.createConnection(options.socket ?? (globalThis.process?.env?.PRESSURED_SOCKET || "/run/pressured/pressured.sock"));
    socket.setEncoding("utf8");
    socket.on("connect", () => handlers.open());
    socket.on("data", (chunk) => {
      pending += chunk;
      let nl;
      while ((nl = pending.indexOf("\n")) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        if (line) handlers.line(line);
      }
    });
    socket.on("error", () => {}); // "close" follows
    socket.on("close", () => { if (!closed) { closed = true; handlers.close(1006, "socket closed"); } });
  }, (error) => handlers.close(1006, String(error)));
  return {
    send: (line) => socket?.write(line + "\n"),
    close: () => { closed = true; socket?.end(); handlers.close(1000, "closed"); },
    get bufferedAmount() { return socket?.writableLength ?? 0; },
  };
}

/**
 * A connection to pressured that reconnects with backoff, keeps the subscription and the regions it set
 * and registers them again after a reconnect, and dispatches every message as an event of its `type`
 * (`hello`, `peek`, `touch`, `device`, `action`, ...; `message` for all of them).
 */
export class Connection extends EventTarget {
  constructor(options = {}) {
    super();
    this.options = options;
    /** The daemon's last `hello` (devices, settings), null until connected. */
    this.hello = null;
    this.devices = [];
    this.settings = null;
    this.connected = false;
    this._nextID = 1;
    this._waiting = new Map();
    this._touches = new Set();  // "device:contact" while down (in the order they began)
    this._peeks = new Map();    // "device:contact" -> its peek, until pop or dismiss
    this._latest = new Map();   // "device:contact" -> its last touch or gesture, while either is open
    this._ending = null;        // how the connection is ending: "bye", "fatal", "closed"; else lost
    this._regions = new Map();
    this._quickActions = null;
    this._subscription = options.subscribe === false ? null : {
      events: options.events ?? ["gestures", "touches", "devices"],
      ...(options.devices ? { devices: options.devices } : {}),
      ...(options.app ? { app: options.app } : {}),
    };
    this._backoff = options.backoff ?? { initial: 250, max: 5000, factor: 2 };
    this._delay = this._backoff.initial;
    this._stopped = false;
    this._timer = null;
    this._open();
  }

  _open() {
    const useUnix = this.options.socket !== undefined || !isBrowser && this.options.url === undefined;
    const handlers = {
      open: () => {},
      line: (line) => this._receive(line),
      close: (code, reason) => this._closed(code, reason),
    };
    this._transport = (useUnix ? unixTransport : webSocketTransport)(this.options, handlers);
  }

  _receive(line) {
    let message;
    try { message = JSON.parse(line); } catch { return; }
    if (message.type === "hello") {
      this.hello = message;
      this.devices = message.devices ?? [];
      this.settings = message.settings ?? null;
      this.connected = true;
      this._delay = this._backoff.initial;
      this._restore();
    } else if (message.type === "settings") {
      this.settings = message.settings;
    } else if (message.type === "device") {
      const others = this.devices.filter((d) => d.id !== message.device.id);
      this.devices = message.change === "removed" ? others : [...others, message.device].sort((a, b) => a.id - b.id);
    } else if ((message.type === "reply" || message.type === "error") && this._waiting.has(message.id)) {
      const { resolve, reject } = this._waiting.get(message.id);
      this._waiting.delete(message.id);
      if (message.type === "reply") resolve(message);
      else reject(new PressuredError(message.error, message.message, message.fatal));
    }
    this._follow(message);
    this._dispatch(message);
  }

  _dispatch(message) {
    this.dispatchEvent(new MessageLikeEvent("message", message));
    this.dispatchEvent(new MessageLikeEvent(message.type, message));
    if (GESTURES.includes(message.type)) this.dispatchEvent(new MessageLikeEvent("gesture", message));
  }

  /** Keeps the touches down and the peeks showing, to end them when the connection ends. */
  _follow(message) {
    if (message.type === "bye") this._ending = "bye";
    if (message.type === "error" && message.fatal) this._ending = "fatal";
    if (message.type !== "touch" && !GESTURES.includes(message.type)) return;
    const key = `${message.device}:${message.contact}`;
    if (message.type === "touch") {
      if (message.phase === "ended" || message.phase === "cancelled") this._touches.delete(key);
      else if (message.phase === "began") this._touches.add(key);
    } else if (message.type === "peek") {
      this._peeks.set(key, message);
    } else if (message.type === "pop" || message.type === "dismiss") {
      this._peeks.delete(key);
    }
    if (this._touches.has(key) || this._peeks.has(key)) this._latest.set(key, message);
    else this._latest.delete(key);
  }

  /** The connection ended: what is still open is ended here (docs/protocol.md, "When the connection
   * ends"), each message marked `synthesized: true`: every open peek dismissed, then every touch
   * cancelled, with the fields of the contact's last event. */
  _endOpen() {
    const peeks = [...this._peeks], touches = [...this._touches], latest = this._latest;
    this._peeks = new Map();
    this._touches = new Set();
    this._latest = new Map();
    const at = (key) => {
      const m = latest.get(key), fields = { device: m.device, contact: m.contact };
      for (const f of ["time", "x", "y", "screenX", "screenY", "force", "maximumPossibleForce"]) if (m[f] !== undefined) fields[f] = m[f];
      return { ...fields, synthesized: true };
    };
    for (const [key, peek] of peeks) this._dispatch({ type: "dismiss", ...at(key), ...(peek.region ? { region: peek.region } : {}) });
    for (const key of touches) this._dispatch({ type: "touch", phase: "cancelled", ...at(key) });
  }

  /** After (re)connecting: the subscription, regions and quick actions again, then `open`. */
  _restore() {
    // Regions before the subscription (so a touch never finds the page subscribed but without them), and
    // quick actions after it (the daemon ties them to the app the subscription names).
    const restored = [];
    for (const region of this._regions.values()) restored.push(this.request("setRegion", region).catch(() => {}));
    if (this._subscription) restored.push(this.request("subscribe", this._subscription).catch(() => {}));
    if (this._quickActions) restored.push(this.request("setQuickActions", { items: this._quickActions }).catch(() => {}));
    Promise.all(restored).then(() => this.dispatchEvent(new MessageLikeEvent("open", this.hello)));
  }

  _closed(code, reason) {
    const wasConnected = this.connected;
    this.connected = false;
    this._endOpen();
    for (const { reject } of this._waiting.values()) reject(new PressuredError("disconnected", reason || `closed (${code})`, true));
    this._waiting.clear();
    // A task later, after the rejections' handlers (microtasks), so `close` comes last.
    const ended = this._ending ?? "lost";
    this._ending = null;
    if (wasConnected || code !== 1000) setTimeout(() => this.dispatchEvent(new MessageLikeEvent("close", { code, reason, ended })), 0);
    if (this._stopped || this.options.reconnect === false) return;
    const delay = this._delay;
    this._delay = Math.min(this._backoff.max, this._delay * this._backoff.factor);
    this._timer = setTimeout(() => { this._timer = null; if (!this._stopped) this._open(); }, delay);
  }

  /** Sends a request and resolves with its `reply` (rejects with a PressuredError). */
  request(name, fields = {}) {
    if (!this.connected) return Promise.reject(new PressuredError("disconnected", "not connected"));
    const id = this._nextID++;
    return new Promise((resolve, reject) => {
      this._waiting.set(id, { resolve, reject });
      this._transport.send(JSON.stringify({ request: name, id, ...fields }));
    });
  }

  /** Replaces the subscription (`events`: gestures, touches, devices; `devices`; `app`), kept across reconnects. */
  subscribe(subscription = {}) {
    this._subscription = { events: ["gestures"], ...subscription };
    return this.connected ? this.request("subscribe", this._subscription) : Promise.resolve(null);
  }

  /** Registers (or moves) a region in screen pixels; kept and registered again after a reconnect. */
  setRegion(region) {
    this._regions.set(region.region, region);
    return this.connected ? this.request("setRegion", region) : Promise.resolve(null);
  }

  removeRegion(id) {
    if (!this._regions.delete(id) || !this.connected) return Promise.resolve(null);
    return this.request("removeRegion", { region: id });
  }

  setQuickActions(items) {
    this._quickActions = items;
    return this.connected ? this.request("setQuickActions", { items }) : Promise.resolve(null);
  }

  chooseAction(app, action) { return this.request("chooseAction", { app, action }); }
  ping() { return this.request("ping").then((r) => r.time); }
  status() { return this.request("status").then((r) => r.status); }
  listDevices() { return this.request("devices").then((r) => r.devices); }

  /** `addEventListener` that returns a function removing the listener again. */
  on(type, listener) {
    const wrapped = (e) => listener(e.detail, e);
    this.addEventListener(type, wrapped);
    return () => this.removeEventListener(type, wrapped);
  }

  /** Closes for good (no reconnect). */
  close() {
    this._stopped = true;
    this._ending ??= "closed";
    if (this._timer) clearTimeout(this._timer);
    this._transport?.close();
  }
}

/** An Event carrying the daemon's message as `detail` (CustomEvent is not in every Node). */
class MessageLikeEvent extends Event {
  constructor(type, detail) {
    super(type);
    this.detail = detail;
  }
}

/** Connects to pressured: `url` (browser; default beside this module), `socket` (Node), `token`, `events`, `app`,
 * `reconnect`, `backoff`. Returns a Connection at once; `open` fires once the daemon's hello is in. */
export function connect(options = {}) {
  return new Connection(options);
}
