// Type declarations for pressured.js (and the modules it re-exports). docs/web.md is the reference.

export declare const PROTOCOL: 1;

/** A daemon message: every line is an object with a `type`; unknown keys may appear (ignore them). */
export interface Message {
  type: string;
  [key: string]: unknown;
}

export interface Axis { min: number; max: number }

export interface DeviceInfo {
  id: number;
  name: string;
  node: string;
  kind: "touchscreen" | "touchpad";
  forceCapability: "available" | "unavailable";
  maximumPossibleForce: number;
  width?: number;
  height?: number;
  x: Axis;
  y: Axis;
  screen: { width: number; height: number; rotation: 0 | 90 | 180 | 270; matrix: number[] };
}

export interface Settings {
  forceTouch: boolean;
  sensitivity: "light" | "medium" | "firm";
  /** Whether the daemon plays haptic effects on gestures (false from a daemon from before haptics). */
  haptics: boolean;
}

export interface Hello extends Message {
  type: "hello";
  protocol: number;
  version: string;
  devices: DeviceInfo[];
  settings: Settings;
}

/** The fields every gesture and touch carries (docs/protocol.md, "Common fields"). */
export interface ContactEvent extends Message {
  time: number;
  device: number;
  contact: number;
  x: number;
  y: number;
  screenX: number;
  screenY: number;
  force: number;
  maximumPossibleForce: number;
  /** True on a `dismiss` or `cancelled` the module made itself when the connection ended with the peek or
   * touch still open (docs/protocol.md, "When the connection ends"); never on the daemon's. */
  synthesized?: true;
}

export type GestureType = "peek" | "pop" | "dismiss" | "quickActions" | "longPress";
/** The gestures' `type`s (docs/protocol.md, "Names"). */
export declare const GESTURES: readonly GestureType[];

export interface QuickActionItem { id: string; title: string; subtitle?: string; icon?: string }

export interface GestureEvent extends ContactEvent {
  type: GestureType;
  /** The region the touch began in, when it is one of this connection's. */
  region?: string;
  app?: string;
  items?: QuickActionItem[];
}

/** A `touch` message (named so it does not hide the DOM's `TouchEvent`). */
export interface TouchMessage extends ContactEvent {
  type: "touch";
  phase: "began" | "moved" | "ended" | "cancelled";
  progress?: number;
}

export interface ActionEvent extends Message { type: "action"; app: string; action: string }

export type RegionWant = "previews" | "quickActions" | "longPress";

export interface Region {
  region: string;
  x: number;
  y: number;
  width: number;
  height: number;
  z?: number;
  wants?: RegionWant[];
  app?: string;
  items?: QuickActionItem[];
  /** false: the daemon plays no haptic effect for touches that begin here (default true). */
  haptics?: boolean;
}

export interface Reply extends Message { type: "reply"; request: string; id?: unknown }

export interface ConnectOptions {
  /** Browser: the bridge's WebSocket URL (default: /pressured on the origin that served this module). */
  url?: string;
  /** Node or Electron's main process: the daemon's Unix socket (default $PRESSURED_SOCKET, else /run/pressured/pressured.sock). */
  socket?: string;
  /** The bridge's Token, offered as the subprotocol pressured-token.TOKEN. */
  token?: string;
  /** What to subscribe to (default gestures, touches and devices); `subscribe: false` for nothing yet. */
  events?: Array<"gestures" | "touches" | "devices">;
  devices?: number[] | "all";
  app?: string;
  subscribe?: boolean;
  reconnect?: boolean;
  backoff?: { initial: number; max: number; factor: number };
  /** A WebSocket implementation where the global one is missing. */
  WebSocket?: new (url: string, protocols?: string | string[]) => WebSocket;
}

export interface ConnectionEventMap {
  open: Hello;
  /** After the synthesized ends and the rejected requests. `ended`: "bye" (a clean stop), "fatal" (let go
   * with a fatal error), "lost" (no word: the daemon was killed, the socket reset) or "closed" (close()). */
  close: { code: number; reason: string; ended: "bye" | "fatal" | "lost" | "closed" };
  message: Message;
  hello: Hello;
  gesture: GestureEvent;
  peek: GestureEvent;
  pop: GestureEvent;
  dismiss: GestureEvent;
  quickActions: GestureEvent;
  longPress: GestureEvent;
  touch: TouchMessage;
  reply: Reply;
  device: Message & { change: "added" | "removed" | "changed"; device: DeviceInfo };
  settings: Message & { settings: Settings };
  dropped: Message & { touches: number };
  action: ActionEvent;
  bye: Message & { reason: string };
  error: Message & { error: string; message: string; fatal?: boolean };
  clicksuppressed: { contact: string; target: EventTarget };
  /** From attach(): touches taught where the viewport is, or taught it again (the window moved). */
  viewport: ViewportState;
}

export declare class PressuredError extends Error {
  readonly code: string;
  readonly fatal: boolean;
  constructor(code: string, message: string, fatal?: boolean);
}

export declare class Connection extends EventTarget {
  readonly options: ConnectOptions;
  readonly hello: Hello | null;
  readonly devices: DeviceInfo[];
  readonly settings: Settings | null;
  readonly connected: boolean;
  request(name: string, fields?: Record<string, unknown>): Promise<Reply>;
  subscribe(subscription?: { events?: ConnectOptions["events"]; devices?: number[] | "all"; app?: string }): Promise<Reply | null>;
  setRegion(region: Region): Promise<Reply | null>;
  removeRegion(id: string): Promise<Reply | null>;
  setQuickActions(items: QuickActionItem[]): Promise<Reply | null>;
  chooseAction(app: string, action: string): Promise<Reply & { delivered: boolean }>;
  ping(): Promise<number>;
  status(): Promise<Record<string, number>>;
  listDevices(): Promise<DeviceInfo[]>;
  on<K extends keyof ConnectionEventMap>(type: K, listener: (detail: ConnectionEventMap[K], event: Event) => void): () => void;
  close(): void;
}

export declare function connect(options?: ConnectOptions): Connection;

// DOM integration (pressured-dom.js)

export interface AttachOptions {
  /** Where to look for [data-pressured] elements (default the document). */
  root?: Document | Element;
  /** Cancel the click of a touch that peeked, popped, long-pressed or showed quick actions (default true;
   * false keeps those clicks). */
  suppressClicks?: boolean;
  /** false: no browser context menu or callout on watched elements (the browser's own long press). */
  nativeLongPressMenu?: boolean;
  /** The viewport's top-left corner on the screen in CSS pixels: overrides what touches teach and the guess. */
  viewportOrigin?: { x: number; y: number };
  /** Learning the origin from touches seen both as DOM touches and as the daemon's contacts: how many
   * pairs in a row must agree (3), within how many CSS pixels (8), paired within how many ms (300); false: off. */
  learnViewport?: false | { samples?: number; tolerance?: number; window?: number };
  /** How far (CSS pixels) the browser's pointer may be from the daemon's contact and still be the same finger. */
  matchRadius?: number;
}

export interface WatchOptions {
  wants?: RegionWant[];
  z?: number;
  app?: string;
  items?: QuickActionItem[];
}

/** `detail` of the pressured:* DOM events: the daemon's fields plus the position in client coordinates. */
export type DOMGestureDetail = GestureEvent & { clientX: number; clientY: number };
export type DOMForceDetail = TouchMessage & { clientX: number; clientY: number };

export interface ViewportState {
  /** The origin in use (screen = client + origin, CSS pixels). */
  origin: { x: number; y: number };
  source: "option" | "touches" | "guess";
  /** From screenX/Y and outerWidth - innerWidth, outerHeight - innerHeight. */
  guess: { x: number; y: number };
  /** What touches taught; null until enough of them agreed. */
  learned: { x: number; y: number } | null;
  /** Whether `learned` agrees with viewportOrigin (when given) or the guess; null until learned. */
  agrees: boolean | null;
}

export interface Page {
  readonly connection: Connection;
  watch(element: Element, options?: WatchOptions): { unwatch(): void };
  unwatch(element: Element): void;
  scan(): void;
  viewportOrigin(): { x: number; y: number };
  guessedOrigin(): { x: number; y: number };
  readonly viewport: ViewportState;
  toClient(screenX: number, screenY: number): { x: number; y: number };
  toScreen(clientX: number, clientY: number): { x: number; y: number };
  detach(): void;
}

export declare function attach(connection: Connection, options?: AttachOptions): Page;

export interface PressuredEventMap {
  "pressured:peek": CustomEvent<DOMGestureDetail>;
  "pressured:pop": CustomEvent<DOMGestureDetail>;
  "pressured:dismiss": CustomEvent<DOMGestureDetail>;
  "pressured:quickactions": CustomEvent<DOMGestureDetail>;
  "pressured:longpress": CustomEvent<DOMGestureDetail>;
  "pressured:forcechange": CustomEvent<DOMForceDetail>;
}

// They bubble: listeners on any element (HTMLElementEventMap and SVGElementEventMap extend ElementEventMap),
// on the document and on the window see them.
declare global {
  interface ElementEventMap extends PressuredEventMap {}
  interface DocumentEventMap extends PressuredEventMap {}
  interface WindowEventMap extends PressuredEventMap {}
}

// Link previews (pressured-links.js)

export interface LinkPreviewOptions {
  scope?: Element | string;
  /** Destinations shown in an iframe besides this page's own origin. */
  origins?: string[];
  preview?(link: HTMLAnchorElement): Element | null | undefined;
  actions?(link: HTMLAnchorElement): Array<{ title: string; run(): void }>;
}

export declare function enableLinkPreviews(page: Page, options?: LinkPreviewOptions): { disable(): void };

// Compatibility layers (pressured-compat.js)

export declare const WEBKIT_FORCE_AT_MOUSE_DOWN: 1;
export declare const WEBKIT_FORCE_AT_FORCE_MOUSE_DOWN: 2;
export declare function enableWebKitForceEvents(page: Page): { disable(): void };

/** Pressure.js's callbacks, each called with `this` the element. `event` is the daemon's message
 * (docs/protocol.md), not a DOM event: there is nothing to `preventDefault()`. A callback that throws is
 * reported (`reportError`) and the others still run. */
export interface PressureHandlers {
  start?(this: Element, event: TouchMessage): void;
  change?(this: Element, force: number, event: TouchMessage): void;
  /** At the peek. */
  startDeepPress?(this: Element, event: GestureEvent): void;
  /** At the lift of a touch that peeked (not when its force falls). */
  endDeepPress?(this: Element, event: TouchMessage): void;
  end?(this: Element, event: TouchMessage): void;
  /** Once when force is unavailable (`ForceTouch = off`, no device with force) or the daemon cannot be
   * reached, and once more each time it comes back and goes away again. */
  unsupported?(this: Element): void;
}

export declare function pressure(page: Page): { set(target: Element | string | Iterable<Element>, handlers: PressureHandlers): void };
