// The Electron helper under Node (Debian has no Electron): electron-preload.cjs against a fake ipcRenderer
// and contextBridge, then the preload and electron-main.js wired through a stand-in for Electron's IPC
// (structured clones both ways, as Electron's are) to a real `pressured --replay`, whose socket
// tools/web/test_node.py passes in PRESSURED_SOCKET (the main half's default, as the other clients').
import assert from "node:assert/strict";
import { createRequire, Module } from "node:module";
import { EventEmitter } from "node:events";
import { test } from "node:test";
import { servePressured } from "../../../web/electron-main.js";
import { connect } from "../../../web/pressured.js";

const require = createRequire(import.meta.url);
const PRELOAD = "../../../web/electron-preload.cjs";

/** The preload as Electron loads it: `require("electron")` answers `electron`; what it exposed is returned. */
function loadPreload(electron) {
  const load = Module._load;
  Module._load = function (request, ...rest) { return request === "electron" ? electron : load.call(this, request, ...rest); };
  try {
    delete require.cache[require.resolve(PRELOAD)];
    return require(PRELOAD);
  } finally {
    Module._load = load;
  }
}

/** A scripted ipcRenderer: records invokes, answers them with `answers[channel]`, can deliver messages. */
function fakeIPC(answers) {
  const ipc = new EventEmitter();
  ipc.invoked = [];
  ipc.invoke = async (channel, ...args) => { ipc.invoked.push([channel, ...args]); return answers(channel, ...args); };
  ipc.deliver = (channel, ...args) => ipc.emit(channel, {}, ...args);
  return ipc;
}

test("the preload exposes `pressured` through contextBridge, and nothing else", () => {
  const exposed = {};
  const ipc = fakeIPC(() => ({ value: true }));
  loadPreload({ contextBridge: { exposeInMainWorld: (key, api) => { exposed[key] = api; } }, ipcRenderer: ipc });
  assert.deepEqual(Object.keys(exposed), ["pressured"]);
  assert.equal(exposed.pressured.PROTOCOL, 1);
  assert.equal(typeof exposed.pressured.connect, "function");
  assert.equal(ipc.invoked.length, 0, "no connection before the page asks for one");
});

test("the preload's connection: events, state, replies, refusals and close over a fake ipcRenderer", async () => {
  const ipc = fakeIPC((channel, method, args) => {
    if (channel !== "pressured:call") return { value: true };
    if (method === "ping") return { value: 12.5 };
    if (method === "request" && args[0] === "set") return { error: { code: "not-permitted", message: "not-permitted: control", fatal: false } };
    return { value: { type: "reply", request: method, args } };
  });
  const { createPressured } = loadPreload(null);
  const c = createPressured(ipc).connect({ events: ["gestures"], devices: [1], app: "ignored" });
  assert.deepEqual(ipc.invoked[0], ["pressured:connect", { events: ["gestures"], devices: [1], subscribe: undefined }]);
  const seen = [];
  const offPeek = c.on("peek", (d) => seen.push(["peek", d.force]));
  c.on("gesture", (d) => seen.push(["gesture", d.type]));
  c.on("message", (d) => seen.push(["message", d.type]));
  c.on("open", (h) => seen.push(["open", h.version]));
  const state = { connected: true, hello: { type: "hello", version: "t" }, devices: [{ id: 1 }], settings: { haptics: true } };
  ipc.deliver("pressured:message", state.hello, state);
  ipc.deliver("pressured:open", state.hello, state);
  ipc.deliver("pressured:message", { type: "peek", force: 1.5 }, null);
  offPeek();
  ipc.deliver("pressured:message", { type: "peek", force: 2 }, null);
  assert.deepEqual(seen, [["message", "hello"], ["open", "t"], ["message", "peek"], ["peek", 1.5], ["gesture", "peek"],
    ["message", "peek"], ["gesture", "peek"]]);
  assert.deepEqual(c.state(), state);
  assert.equal(await c.ping(), 12.5);
  assert.deepEqual((await c.setRegion({ region: "r", x: 1, y: 2, width: 3, height: 4 })).args, [{ region: "r", x: 1, y: 2, width: 3, height: 4 }]);
  assert.deepEqual((await c.chooseAction("a", "b")).args, ["a", "b"]);
  await assert.rejects(c.request("set", { forceTouch: false }),
    (e) => e.name === "PressuredError" && e.code === "not-permitted" && e.fatal === false && e.message === "not-permitted: control");
  const emitted = [];
  c.on("clicksuppressed", (d) => emitted.push(d.contact));
  c.emit("clicksuppressed", { contact: "1:2" });
  assert.deepEqual(emitted, ["1:2"]);
  c.close();
  assert.equal(ipc.listenerCount("pressured:message"), 0);
  assert.deepEqual(ipc.invoked.at(-1), ["pressured:close"]);
  await assert.rejects(c.ping(), (e) => e.code === "disconnected");
});

/** Electron's IPC between one window and the main process, cloning every value as Electron does. */
function fakeElectron() {
  const handlers = new Map();
  const ipcMain = { handle: (ch, fn) => handlers.set(ch, fn), removeHandler: (ch) => handlers.delete(ch) };
  const renderer = new EventEmitter();
  let destroyed = false;
  const webContents = Object.assign(new EventEmitter(), {
    id: 7, isDestroyed: () => destroyed,
    send: (channel, ...args) => renderer.emit(channel, {}, ...structuredClone(args)),
    destroy() { destroyed = true; this.emit("destroyed"); },
  });
  renderer.invoke = async (channel, ...args) => structuredClone(await handlers.get(channel)({ sender: webContents }, ...structuredClone(args)));
  return { ipcMain, ipcRenderer: renderer, webContents, handlers };
}

function next(connection, type) {
  return new Promise((resolve) => { const off = connection.on(type, (d) => { off(); resolve(d); }); });
}

test("the main half against the daemon: a window's connection, what it may ask, and its end", async () => {
  const { ipcMain, ipcRenderer, webContents, handlers } = fakeElectron();
  const served = servePressured(ipcMain, { app: "org.example.electron" }); // the socket from PRESSURED_SOCKET
  const c = loadPreload(null).createPressured(ipcRenderer).connect({ events: ["gestures"] });
  const types = [];
  c.on("gesture", (g) => types.push(g.type));
  const hello = await next(c, "open");
  assert.equal(hello.protocol, 1);
  assert.equal(c.state().connected, true);
  assert.equal(c.state().devices[0].forceCapability, "available");
  assert.equal(typeof (await c.ping()), "number");
  assert.equal((await c.setRegion({ region: "r", x: 0, y: 0, width: 10, height: 10 })).region, "r");
  // Control stays with the main process; the renderer acts for its app only.
  await assert.rejects(c.request("set", { forceTouch: false }), (e) => e.code === "not-permitted" && /control/.test(e.message));
  await assert.rejects(c.chooseAction("org.example.other", "compose"), (e) => e.code === "not-permitted");
  await assert.rejects(c.request("nonsense"), (e) => e.code === "unknown-request");
  // The subscription (its app filled in by the main process) brought the replay's press, in order.
  while (!types.includes("pop")) await next(c, "gesture");
  assert.deepEqual(types, ["peek", "pop"]);
  const action = next(c, "action");
  assert.equal((await c.chooseAction("org.example.electron", "compose")).delivered, true);
  assert.deepEqual(await action, { type: "action", app: "org.example.electron", action: "compose" });
  assert.equal((await c.status()).regions, 1);
  // The window goes: its connection, and its region, with it.
  webContents.destroy();
  assert.equal(served.connections.size, 0);
  const direct = connect({ subscribe: false, reconnect: false });
  await next(direct, "open");
  let status = await direct.status();
  while (status.clients > 1) { await new Promise((r) => setTimeout(r, 20)); status = await direct.status(); }
  assert.equal(status.regions, 0);
  direct.close();
  served.close();
  assert.equal(handlers.size, 0);
});
