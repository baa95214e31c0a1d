// pressured.js when the daemon goes away without a word (killed): a fake daemon on a Unix socket says
// hello, starts a touch and a peek, leaves a request unanswered and hangs up. The connection ends what was
// open, each marked synthesized, in docs/protocol.md's order: peeks dismissed, touches cancelled, requests
// rejected, then `close`. Run by tools/web/test_node.py (no daemon needed).
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { connect, PressuredError } from "../../../web/pressured.js";

const HELLO = { type: "hello", protocol: 1, version: "0.1.0", devices: [], settings: {} };
const touch = (phase, contact, x) => ({ type: "touch", time: 1, device: 1, contact, phase, screenX: x, screenY: 20, force: 1.2 });

/** A fake daemon that answers the subscription with `lines`, then hangs up; the messages the connection
 * synthesized, once it closed. */
async function synthesizedAfterHangUp(lines) {
  const path = join(mkdtempSync(join(tmpdir(), "pressured-js-")), "fake.sock");
  const server = net.createServer((s) => {
    s.write(JSON.stringify(HELLO) + "\n");
    s.on("data", (chunk) => {
      if (!String(chunk).includes("subscribe")) return;
      for (const m of lines) s.write(JSON.stringify(m) + "\n");
      setTimeout(() => s.destroy(), 30);
    });
  });
  await new Promise((resolve) => server.listen(path, resolve));
  const c = connect({ socket: path, reconnect: false });
  const ends = [];
  c.on("message", (m) => { if (m.synthesized) ends.push(m); });
  await new Promise((resolve) => c.on("close", resolve));
  server.close();
  return ends;
}

test("a dropped connection ends every open peek and touch, then rejects, then closes", async () => {
  const path = join(mkdtempSync(join(tmpdir(), "pressured-js-")), "fake.sock");
  let hangUp;
  const server = net.createServer((s) => {
    s.write(JSON.stringify(HELLO) + "\n");
    s.on("data", (chunk) => {
      for (const line of String(chunk).split("\n").filter(Boolean)) {
        const r = JSON.parse(line);
        if (r.request === "subscribe") {
          s.write(JSON.stringify({ type: "reply", id: r.id }) + "\n");
          for (const m of [touch("began", 7, 10), touch("began", 8, 300), touch("moved", 7, 12),
                           { type: "peek", time: 1, device: 1, contact: 7, screenX: 12, screenY: 20, force: 1.5, region: "r1" },
                           touch("began", 9, 500), touch("ended", 9, 500)]) {
            s.write(JSON.stringify(m) + "\n");
          }
        }
        if (r.request === "ping") hangUp = () => s.destroy(); // never answered
      }
    });
  });
  await new Promise((resolve) => server.listen(path, resolve));
  const c = connect({ socket: path, reconnect: false });
  const seen = [];
  c.on("message", (m) => { if (m.synthesized) seen.push(`${m.type}:${m.phase ?? ""}:${m.contact}`); });
  c.on("gesture", (g) => { if (g.synthesized) seen.push(`gesture:${g.type}`); });
  c.on("peek", () => {});
  await new Promise((resolve) => c.on("peek", resolve));
  await new Promise((resolve) => setTimeout(resolve, 50)); // the rest of the replay
  const pending = c.ping().then(() => "answered", (e) => { seen.push("rejected"); return e; });
  while (!hangUp) await new Promise((resolve) => setTimeout(resolve, 5));
  const closed = new Promise((resolve) => c.on("close", (d) => { seen.push(`close:${d.ended}`); resolve(); }));
  hangUp();
  await closed;
  const error = await pending;
  assert.ok(error instanceof PressuredError && error.code === "disconnected");
  assert.deepEqual(seen, ["dismiss::7", "gesture:dismiss", "touch:cancelled:7", "touch:cancelled:8", "rejected", "close:lost"]);
  server.close();
});

test("the synthesized messages carry the contact's place and the peek's region", async () => {
  const ends = await synthesizedAfterHangUp([
    touch("began", 3, 40),
    { type: "peek", time: 1, device: 1, contact: 3, screenX: 41, screenY: 20, force: 1.5, region: "r9" },
  ]);
  // The fields of the contact's last event (the peek), the peek's region on the dismiss.
  const last = { device: 1, contact: 3, time: 1, screenX: 41, screenY: 20, force: 1.5, synthesized: true };
  assert.deepEqual(ends, [{ type: "dismiss", ...last, region: "r9" }, { type: "touch", phase: "cancelled", ...last }]);
});

test("nothing is synthesized for what ended before the drop", async () => {
  const ends = await synthesizedAfterHangUp([
    touch("began", 4, 40), { type: "peek", time: 1, device: 1, contact: 4, screenX: 40, screenY: 20, force: 1.5 },
    { type: "pop", time: 1, device: 1, contact: 4, screenX: 40, screenY: 20, force: 2.5 }, touch("cancelled", 4, 40),
  ]);
  assert.deepEqual(ends, []);
});
