// A small typed use of pressured.js, checked by `tsc --noEmit` (tools/web/test_node.py): the declarations
// must describe what a kiosk page and an Electron main process write.
import { connect, attach, enableLinkPreviews, pressure, PressuredError, type GestureEvent, type TouchMessage, type ViewportState } from "../../../web/pressured.js";

const pressured = connect({ token: "0123456789abcdef", events: ["gestures", "touches"] });
pressured.on("peek", (e: GestureEvent) => console.log(e.force.toFixed(2), e.maximumPossibleForce, e.region ?? "broadcast"));
pressured.on("touch", (t) => { if (t.phase === "moved") console.log(t.progress ?? 1); });
pressured.on("close", ({ code }) => console.log("closed", code));

const page = attach(pressured, { nativeLongPressMenu: false, viewportOrigin: { x: 0, y: 0 } });
const tile = document.querySelector<HTMLElement>("#tile");
if (tile) {
  page.watch(tile, { wants: ["previews", "quickActions"], z: 1 });
  tile.addEventListener("pressured:peek", (e) => { e.preventDefault(); console.log(e.detail.clientX, e.detail.contact); });
  tile.addEventListener("pressured:forcechange", (e) => console.log(e.detail.phase, e.detail.force));
}
// The events bubble, typed on the document, the window and every element (SVG ones too).
document.addEventListener("pressured:peek", (e) => console.log(e.detail.region ?? "broadcast", e.detail.clientY));
// @ts-expect-error: detail is typed, not any
document.addEventListener("pressured:pop", (e) => { const n: number = e.detail.region; console.log(n); });
window.addEventListener("pressured:forcechange", (e) => console.log(e.detail.progress));
document.querySelector("svg")?.addEventListener("pressured:longpress", (e) => console.log(e.detail.force));
// The DOM's TouchEvent is the DOM's, the module's touch message its own.
document.addEventListener("touchstart", (e: TouchEvent) => console.log(e.touches.length, e.changedTouches[0]?.clientX));
pressured.on("touch", (t: TouchMessage) => console.log(t.phase));
// Viewport learning: the state, and the event when touches taught it.
const learnedPage = attach(pressured, { learnViewport: { samples: 2, tolerance: 4 }, suppressClicks: true });
const state: ViewportState = learnedPage.viewport;
console.log(state.source === "touches" ? state.learned?.x : state.guess.x, learnedPage.guessedOrigin().y);
pressured.on("viewport", (v) => { if (v.agrees === false) console.warn("the guess was off", v.learned, v.guess); });
attach(pressured, { learnViewport: false });
if (pressured.settings?.haptics) console.log("haptics on");
pressured.setRegion({ region: "keyboard", x: 0, y: 600, width: 1280, height: 200, wants: ["longPress"], haptics: false });
enableLinkPreviews(page, { origins: ["https://example.org"], actions: (link) => [{ title: "Open", run: () => link.click() }] });
pressure(page).set("#deep", { change: (force) => console.log(force), startDeepPress: () => console.log("deep") });
// Pressure.js blocks as written for it: `this` is the element, and `unsupported` where force is not to be had.
pressure(page).set("#deep", {
  change(force) { (this as HTMLElement).style.opacity = String(1 - force / 2); },
  end() { console.log(this.id); },
  unsupported() { this.classList.add("no-force"); },
});

async function main(): Promise<void> {
  const time: number = await pressured.ping();
  const reply = await pressured.chooseAction("org.example.kiosk", "compose");
  console.log(time, reply.delivered);
  try {
    await pressured.request("set", { forceTouch: false });
  } catch (e) {
    if (e instanceof PressuredError) console.log(e.code, e.fatal);
  }
  // Electron's main process: the daemon's socket directly.
  const direct = connect({ socket: "/run/pressured/pressured.sock", events: ["gestures"], app: "org.example.kiosk" });
  direct.on("action", (a) => console.log(a.app, a.action));
  direct.close();
}
void main();
