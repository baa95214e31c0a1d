// pressured-viewport.js: where a page's viewport is on the screen, so the daemon's screen pixels and the
// page's client coordinates can be turned into each other. Given (the `viewportOrigin` option), guessed
// from the window's place and size, or taught by touches seen both as DOM touches and as the daemon's
// contacts (docs/web.md, "Set-up"). Used by pressured-dom.js's page; no DOM listeners of its own.

export class Viewport {
  /** `options`: the page's (`viewportOrigin`, `learnViewport`); `learned(viewport)`: called when touches
   * taught an origin, with what `describe()` says then. */
  constructor(options, learned) {
    this.given = options.viewportOrigin ?? null;
    const learn = options.learnViewport ?? {};
    this.learning = learn === false ? null : { samples: learn.samples ?? 3, tolerance: learn.tolerance ?? 8, window: learn.window ?? 300 };
    this.seen = { dom: [], daemon: [] };  // recent touch starts both ways, for learning: {x, y, t, paired}
    this.corrections = [];      // the last pairs' offsets from the guessed origin
    this.correction = null;     // the learned one (their agreed mean), null until learned
    this.learned = learned;
  }

  /** Where the viewport's top-left corner is on the screen, in CSS pixels: the option, else what touches
   * taught, else the guess. */
  origin() {
    if (this.given) return this.given;
    const g = this.guess(), c = this.correction;
    return c ? { x: g.x + c.x, y: g.y + c.y } : g;
  }

  /** The origin guessed from the window's place and size, which a touch may correct. */
  guess() {
    // Inside same-origin iframes, add each frame's place in its parent, up to the top window.
    let x = 0, y = 0, w = window;
    try {
      while (w !== w.parent && w.frameElement) {
        const f = w.frameElement, r = f.getBoundingClientRect();
        x += r.left + f.clientLeft;
        y += r.top + f.clientTop;
        w = w.parent;
      }
    } catch { /* a cross-origin parent: pass viewportOrigin, or let touches teach it */ }
    // A kiosk window fills the screen: all of this is 0. Elsewhere assume side borders of equal width and
    // the browser's own bars on top (right for most windows; touches correct the rest).
    const border = Math.max(0, (w.outerWidth - w.innerWidth) / 2);
    return { x: x + w.screenX + border, y: y + w.screenY + Math.max(0, w.outerHeight - w.innerHeight - border) };
  }

  /** The origin in use and where from (`option`, `touches`, `guess`), the guess, the origin touches taught
   * (null until they agreed) and whether that agrees with the option or the guess (null until learned). */
  describe() {
    const guess = this.guess(), c = this.correction, option = this.given;
    const learned = c ? { x: round(guess.x + c.x), y: round(guess.y + c.y) } : null;
    const used = option ?? guess, tolerance = this.learning?.tolerance ?? 0;
    return {
      origin: this.origin(), source: option ? "option" : learned ? "touches" : "guess", guess, learned,
      agrees: learned ? Math.hypot(learned.x - used.x, learned.y - used.y) <= tolerance : null,
    };
  }

  /** Whether a daemon point can be placed on the page: the origin was given or learned. */
  known() {
    return Boolean(this.given || this.correction || !this.learning);
  }

  /** Pairs a touch start seen one way (`side`: "dom" or "daemon") with the one seen the other way at about
   * the same time, when each is the other's only candidate (two fingers at once teach nothing); the
   * pair's offset is a sample. Returns the pair as `{daemon, dom}`, or null. */
  pair(side, touch) {
    const other = side === "dom" ? "daemon" : "dom", w = this.learning.window;
    for (const s of [side, other]) this.seen[s] = this.seen[s].filter((q) => Math.abs(touch.t - q.t) <= 4 * w);
    this.seen[side].push(touch);
    const near = (list, a) => list.filter((b) => Math.abs(a.t - b.t) <= w);
    const candidates = near(this.seen[other], touch);
    if (candidates.length !== 1 || candidates[0].paired || near(this.seen[side], candidates[0]).length !== 1) return null;
    const match = candidates[0];
    touch.paired = match.paired = true;
    const [daemon, dom] = side === "daemon" ? [touch, match] : [match, touch];
    this._sample(daemon.x - dom.x, daemon.y - dom.y);
    return { daemon, dom };
  }

  /** One pair's origin (screen = client + origin): learned once the last `samples` agree within
   * `tolerance`, and learned again when later ones agree on another (the window moved). */
  _sample(x, y) {
    const g = this.guess(), { samples, tolerance } = this.learning;
    this.corrections.push({ x: x - g.x, y: y - g.y });
    if (this.corrections.length > samples) this.corrections.shift();
    if (this.corrections.length < samples) return;
    const n = this.corrections.length;
    const mean = { x: this.corrections.reduce((a, s) => a + s.x, 0) / n, y: this.corrections.reduce((a, s) => a + s.y, 0) / n };
    if (this.corrections.some((s) => Math.hypot(s.x - mean.x, s.y - mean.y) > tolerance)) return;
    const c = this.correction;
    if (c && Math.hypot(mean.x - c.x, mean.y - c.y) <= tolerance) return;
    this.correction = mean;
    const viewport = this.describe();
    if (viewport.source === "option" && !viewport.agrees) {
      console.warn(`pressured.js: touches put the viewport at ${viewport.learned.x},${viewport.learned.y}, not at viewportOrigin's ${viewport.origin.x},${viewport.origin.y}`);
    }
    this.learned(viewport);
  }

  /** Screen pixels (the daemon's) to client coordinates (CSS pixels). */
  toClient(screenX, screenY) {
    const o = this.origin(), r = window.devicePixelRatio || 1;
    return { x: screenX / r - o.x, y: screenY / r - o.y };
  }

  /** Client coordinates to screen pixels. */
  toScreen(clientX, clientY) {
    const o = this.origin(), r = window.devicePixelRatio || 1;
    return { x: (clientX + o.x) * r, y: (clientY + o.y) * r };
  }
}

/** A CSS pixel figure to hundredths, as the regions and the learned origin are sent and shown. */
export function round(v) { return Math.round(v * 100) / 100; }
