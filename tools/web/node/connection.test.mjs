// pressured.js under Node (Electron's main process): straight to the daemon's Unix socket with
// net.createConnection. Run by tools/web/test_node.py, which starts `pressured --replay` and passes its
// socket in PRESSURED_SOCKET.
import assert from "node:assert/strict";
import { test } from "node:test";
import { connect, PressuredError } from "../../../web/pressured.js";

const socket = process.env.PRESSURED_SOCKET;

function next(connection, type) {
  return new Promise((resolve) => { const off = connection.on(type, (d) => { off(); resolve(d); }); });
}

test("hello, requests and errors over the Unix socket", async () => {
  const c = connect({ socket, subscribe: false, reconnect: false });
  const hello = await next(c, "open");
  assert.equal(hello.protocol, 1);
  assert.equal(c.devices[0].forceCapability, "available");
  assert.equal(typeof (await c.ping()), "number");
  assert.equal((await c.status()).clients >= 1, true);
  await assert.rejects(c.request("nonsense"), (e) => e instanceof PressuredError && e.code === "unknown-request");
  const reply = await c.setRegion({ region: "r", x: 0, y: 0, width: 10, height: 10 });
  assert.equal(reply.region, "r");
  c.close();
});

test("the subscription's gestures arrive as events, in the replay's order", async () => {
  const c = connect({ socket, events: ["gestures"], app: "org.example.node", reconnect: false });
  const types = [];
  await new Promise((resolve) => {
    c.on("gesture", (g) => { types.push(g.type); if (g.type === "pop") resolve(); });
  });
  assert.deepEqual(types, ["peek", "pop"]);
  // The app's own quick action reaches it.
  const action = next(c, "action");
  assert.equal((await c.chooseAction("org.example.node", "compose")).delivered, true);
  assert.deepEqual(await action, { type: "action", app: "org.example.node", action: "compose" });
  c.close();
});

test("a missing socket closes, then the connection retries with backoff until told to stop", async () => {
  const c = connect({ socket: socket + ".missing", backoff: { initial: 10, max: 20, factor: 2 } });
  let closes = 0;
  await new Promise((resolve) => c.on("close", () => { if (++closes === 3) resolve(); }));
  c.close();
  assert.equal(c.connected, false);
});
