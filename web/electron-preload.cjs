// electron-preload.cjs: pressured for an Electron renderer with sandbox and context isolation on, the
// preload's half (docs/web.md, "Electron"): exposes `window.pressured` through contextBridge, whose
// `connect(options)` returns a connection shaped as pressured.js's (`on`, `request`, `subscribe`,
// `setRegion`, ..., `close`) over IPC to electron-main.js, which holds the daemon's socket. A sandboxed
// preload may require only "electron", so this is a script of its own (CommonJS, no imports).
//
//   new BrowserWindow({ webPreferences: { preload: path.join(dir, "electron-preload.cjs"), sandbox: true, contextIsolation: true } })
//   // in the page:
//   const pressured = window.pressured.connect({ events: ["gestures"] });
//   pressured.on("peek", (e) => show(e));
//   const page = attach(pressured);   // pressured.js's DOM integration, loaded by the page
"use strict";

const GESTURES = ["peek", "pop", "dismiss", "quickActions", "longPress"];

/** The `pressured` object the preload exposes, over `ipc` (ipcRenderer, or a stand-in in tests). */
function createPressured(ipc) {
  let current = null; // a renderer has one connection; connect() again replaces it

  function connect(options = {}) {
    current?.close();
    const listeners = new Map(); // type -> Set of listeners
    let state = { connected: false, hello: null, devices: [], settings: null };
    let closed = false;

    const emit = (type, detail) => {
      for (const listener of [...(listeners.get(type) ?? [])]) {
        try { listener(detail); } catch (e) { setTimeout(() => { throw e; }); } // one listener's error stops no other
      }
    };
    const handlers = {
      "pressured:message": (_event, message, s) => {
        if (s) state = s;
        emit("message", message);
        emit(message.type, message);
        if (GESTURES.includes(message.type)) emit("gesture", message);
      },
      "pressured:open": (_event, hello, s) => { state = s; emit("open", hello); },
      "pressured:close": (_event, c, s) => { state = s; emit("close", c); },
    };
    for (const [channel, handler] of Object.entries(handlers)) ipc.on(channel, handler);

    const answer = (r) => {
      if (!r?.error) return r?.value ?? null;
      throw Object.assign(new Error(r.error.message), { name: "PressuredError", code: r.error.code, fatal: r.error.fatal });
    };
    const ready = ipc.invoke("pressured:connect", {
      events: options.events, devices: options.devices, subscribe: options.subscribe,
    }).then(answer);
    ready.catch((e) => emit("error", { type: "error", error: e.code ?? "error", message: e.message, fatal: true }));
    const call = (method, ...args) => closed
      ? Promise.reject(Object.assign(new Error("disconnected: closed"), { name: "PressuredError", code: "disconnected", fatal: true }))
      : ready.then(() => ipc.invoke("pressured:call", method, args)).then(answer);

    const connection = {
      /** `addEventListener`'s counterpart: `listener(detail)`; returns a function removing it again. */
      on(type, listener) {
        if (!listeners.has(type)) listeners.set(type, new Set());
        const wrapped = (detail) => listener(detail);
        listeners.get(type).add(wrapped);
        return () => listeners.get(type)?.delete(wrapped);
      },
      /** Fires an event of this connection's own (attach() fires `clicksuppressed` and `viewport`). */
      emit,
      /** `connected`, `hello`, `devices`, `settings` now (properties would be copied once, over the bridge). */
      state: () => structuredClone(state),
      request: (name, fields = {}) => call("request", name, fields),
      subscribe: (subscription = {}) => call("subscribe", subscription),
      setRegion: (region) => call("setRegion", region),
      removeRegion: (id) => call("removeRegion", id),
      setQuickActions: (items) => call("setQuickActions", items),
      chooseAction: (app, action) => call("chooseAction", app, action),
      ping: () => call("ping"),
      status: () => call("status"),
      listDevices: () => call("listDevices"),
      /** Closes for good; the main process closes the daemon connection (and the window's regions go). */
      close() {
        if (closed) return;
        closed = true;
        for (const [channel, handler] of Object.entries(handlers)) ipc.removeListener(channel, handler);
        listeners.clear();
        if (current === connection) current = null;
        ipc.invoke("pressured:close").catch(() => {});
      },
    };
    current = connection;
    return connection;
  }

  return { PROTOCOL: 1, connect };
}

// Loaded by Electron: expose it; required elsewhere (tests): export it.
const electron = (() => { try { return require("electron"); } catch { return null; } })();
if (electron?.contextBridge && electron.ipcRenderer) {
  electron.contextBridge.exposeInMainWorld("pressured", createPressured(electron.ipcRenderer));
  globalThis.addEventListener?.("pagehide", () => electron.ipcRenderer.invoke("pressured:close").catch(() => {}));
}
if (typeof module !== "undefined") module.exports = { createPressured };
