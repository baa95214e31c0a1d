// pressured.js and pressured.d.ts against docs/protocol.md's table of names (between its `names`
// markers): every gesture is dispatched as a gesture and has its DOM event, the gestures that take a
// touch are the table's, a `type` the module does not know is no gesture, and the declarations type
// every name the table gives (tsc on a file made from the table). A name the table adds fails here until
// the module has it. Run by tools/web/test_node.py; no daemon needed.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { connect, GESTURES } from "../../../web/pressured.js";
import { GESTURE_EVENTS, TAKES_A_TOUCH } from "../../../web/pressured-dom.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** {vocabulary: [names]} and the gestures that take a touch: the rows between the markers, names from
 * the code spans of the third cell. */
function readNames() {
  const doc = readFileSync(join(root, "docs/protocol.md"), "utf8");
  const table = doc.slice(doc.indexOf("<!-- names -->"), doc.indexOf("<!-- /names -->"));
  const names = {};
  const taking = new Set();
  for (const line of table.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    if (!line.startsWith("|") || cells.length < 5 || cells[1] === "vocabulary" || cells[1].startsWith("-")) continue;
    const listed = cells[3].split("`").filter((_, i) => i % 2 === 1);
    (names[cells[1]] ??= []).push(...listed);
    if (cells[4] === "yes") listed.forEach((n) => taking.add(n));
  }
  return { names, taking };
}

const { names, taking } = readNames();

/** A connection on a WebSocket that is never opened: lines are handed to it as the bridge's messages. */
function fakeConnection() {
  let socket = null;
  class FakeWebSocket {
    constructor() { socket = this; }
    send() {}
    close() {}
  }
  const c = connect({ url: "ws://fake/pressured", WebSocket: FakeWebSocket, reconnect: false });
  return { c, receive: (message) => socket.onmessage({ data: JSON.stringify(message) }) };
}

test("every gesture of the table is a gesture here, with its DOM event; another type is none", () => {
  assert.ok(names.gesture?.length > 0, "docs/protocol.md has a table of names");
  const { c, receive } = fakeConnection();
  const gestures = [];
  const types = [];
  c.on("gesture", (m) => gestures.push(m.type));
  c.on("message", (m) => types.push(m.type));
  for (const name of names.gesture) {
    assert.ok(GESTURES.includes(name), `docs/protocol.md names the gesture ${name}: add it to GESTURES`);
    assert.ok(GESTURE_EVENTS[name], `the gesture ${name} has no DOM event (GESTURE_EVENTS)`);
    receive({ type: name, time: 1, device: 1, contact: 1 });
  }
  receive({ type: "squeeze", time: 1, device: 1, contact: 1, phase: "began" });
  assert.deepEqual(gestures, names.gesture, "each gesture dispatched as one");
  assert.deepEqual(types, [...names.gesture, "squeeze"], "an unknown type is a message of its own type, not a gesture");
  c.close();
});

test("the gestures that take a touch are the table's", () => {
  assert.deepEqual([...TAKES_A_TOUCH].sort(), [...taking].sort());
});

test("pressured.d.ts types every name of the table", () => {
  const dir = mkdtempSync(join(tmpdir(), "pressured-names-"));
  try {
    const all = (vocabulary) => `{ ${names[vocabulary].map((n) => `${JSON.stringify(n)}: true`).join(", ")} }`;
    // Record<Union, true> from an object literal: a name the union lacks and one the table lacks both fail.
    writeFileSync(join(dir, "names.ts"), `import type { ConnectionEventMap, ConnectOptions, DeviceInfo, GestureType, RegionWant, Settings, TouchMessage } from ${JSON.stringify(join(root, "web/pressured.js"))};
export const gesture: Record<GestureType, true> = ${all("gesture")};
export const message: Array<keyof ConnectionEventMap> = ${JSON.stringify(names.message)};
export const phase: Record<TouchMessage["phase"], true> = ${all("phase")};
export const events: Record<NonNullable<ConnectOptions["events"]>[number], true> = ${all("events")};
export const wants: Record<RegionWant, true> = ${all("wants")};
export const change: Record<ConnectionEventMap["device"]["change"], true> = ${all("change")};
export const kind: Record<DeviceInfo["kind"], true> = ${all("kind")};
export const capability: Record<DeviceInfo["forceCapability"], true> = ${all("capability")};
export const sensitivity: Record<Settings["sensitivity"], true> = ${all("sensitivity")};
`);
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
      compilerOptions: { target: "es2022", module: "es2022", moduleResolution: "node", lib: ["es2022", "dom"], strict: true, noEmit: true, types: [] },
      files: ["names.ts"],
    }));
    try {
      execFileSync("tsc", ["-p", dir], { encoding: "utf8" });
    } catch (e) {
      assert.fail(`tsc on the table's names:\n${e.stdout}${e.stderr}`);
    }
    // Requests, error codes, reasons and average sources are strings to the module (request(name) sends any).
    const typed = ["gesture", "message", "phase", "events", "wants", "change", "kind", "capability", "sensitivity"];
    const strings = ["request", "error", "reason", "source"];
    assert.deepEqual(Object.keys(names).filter((v) => !typed.includes(v) && !strings.includes(v)), [], "vocabularies this test does not know");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
