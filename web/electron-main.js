// electron-main.js: pressured for Electron's renderers, the main process's half (docs/web.md, "Electron").
// Each renderer that calls the preload's `pressured.connect()` gets its own connection to the daemon's
// Unix socket (pressured.js under Node: reconnecting, its subscription, regions and quick actions kept), so
// a window's regions go when the window does; electron-preload.cjs is the other half. As pressured-web does
// for an Origin, the main process decides what renderers may ask: they act for `app` only, and control
// requests (`set`, `reload`, `resetLearning`) pass only with `control: true`.
//
//   import { ipcMain } from "electron";
//   import { servePressured } from "./electron-main.js";
//   servePressured(ipcMain, { app: "org.example.kiosk" });  // socket: $PRESSURED_SOCKET, else the system one

import { connect } from "./pressured.js";

const CONTROL = new Set(["set", "reload", "resetLearning"]);
const METHODS = new Set(["request", "subscribe", "setRegion", "removeRegion", "setQuickActions", "chooseAction",
  "ping", "status", "listDevices"]);
const CHANNELS = ["pressured:connect", "pressured:call", "pressured:close"];

/** The main process's answer to the preload's IPC. `options`: `socket`, `app` (the app renderers act
 * for), `control`, `allow(event)` (whether a renderer may connect at all), `reconnect`, `backoff`.
 * Returns `{connections, close()}`: the open connections by webContents id, and a stop. */
export function servePressured(ipcMain, options = {}) {
  const connections = new Map();

  const closeFor = (id) => {
    const c = connections.get(id);
    if (!c) return;
    connections.delete(id);
    c.close();
  };
  const state = (c) => ({ connected: c.connected, hello: c.hello, devices: c.devices, settings: c.settings });

  ipcMain.handle("pressured:connect", (event, wanted = {}) => {
    const sender = event.sender;
    if (options.allow && !options.allow(event)) return { error: refusal("pressured is not offered to this page") };
    closeFor(sender.id); // a reload: the page's connection before it goes
    const connection = connect({
      socket: options.socket,
      events: wanted.events, devices: wanted.devices, subscribe: wanted.subscribe,
      ...(options.app ? { app: options.app } : {}),
      reconnect: options.reconnect, backoff: options.backoff,
    });
    connections.set(sender.id, connection);
    const send = (channel, ...values) => {
      if (connections.get(sender.id) === connection && !sender.isDestroyed()) sender.send(channel, ...values);
    };
    connection.on("message", (m) => send("pressured:message", m, ["hello", "settings", "device"].includes(m.type) ? state(connection) : null));
    connection.on("open", (hello) => send("pressured:open", hello, state(connection)));
    connection.on("close", (c) => send("pressured:close", c, state(connection)));
    sender.once("destroyed", () => { if (connections.get(sender.id) === connection) closeFor(sender.id); });
    return { value: true };
  });

  ipcMain.handle("pressured:call", async (event, method, args = []) => {
    const connection = connections.get(event.sender.id);
    if (!connection) return { error: { code: "disconnected", message: "disconnected: connect() first", fatal: true } };
    if (!METHODS.has(method)) return { error: { code: "unknown-request", message: `unknown-request: no method '${method}'` } };
    try {
      const refused = permit(options, method, args);
      if (refused) return { error: refused };
      return { value: await connection[method](...args) };
    } catch (e) {
      return { error: { code: e.code ?? "error", message: e.message, fatal: e.fatal === true } };
    }
  });

  ipcMain.handle("pressured:close", (event) => { closeFor(event.sender.id); return { value: true }; });

  return {
    connections,
    close() {
      for (const channel of CHANNELS) ipcMain.removeHandler(channel);
      for (const id of [...connections.keys()]) closeFor(id);
    },
  };
}

/** What a renderer may not ask (its request unchanged, or null), filling in `app` of a subscription. */
function permit(options, method, args) {
  const raw = method === "request";
  const name = raw ? args[0] : method;
  let fields = raw ? (args[1] ??= {}) : method === "chooseAction" ? { app: args[0] } : args[0];
  if (CONTROL.has(name) && options.control !== true) {
    return refusal(`'${name}' is control, not forwarded for renderers (servePressured's control is off)`);
  }
  if (name === "subscribe") {
    if (!fields || typeof fields !== "object") fields = raw ? (args[1] = {}) : (args[0] = {});
    if (options.app) fields.app = options.app;
    else delete fields.app;
  } else if (fields && typeof fields === "object" && fields.app !== undefined && fields.app !== options.app) {
    return refusal(`renderers act for ${options.app ? `'${options.app}'` : "no app"}, not for '${fields.app}'`);
  }
  return null;
}

function refusal(message) {
  return { code: "not-permitted", message: `not-permitted: ${message}`, fatal: false };
}
