"""Scenario 24: the clone carries every frame of the panel unchanged but for the cancelled slots' tool type
(docs/filter.md, "What the compositor sees").

What the panel passed on cannot be recorded beside pressured: while it holds the grab (EVIOCGRAB) no other
reader of the panel gets an event, and pressured's own account of what it read (its log, `--record`) would
check pressured against itself. What is sound is to derive it from what the player wrote: evplay writes each
frame of the capture to the panel in one write(2), and the kernel's input core passes on to every reader
exactly what `kernel_pass` computes, from nothing but those events and the device's description
(drivers/input/input.c, Linux 6.1, input_handle_abs_event, input_get_disposition, input_handle_event):
- an ABS_MT_SLOT is not passed as it comes: it stages the slot, and the core sends ABS_MT_SLOT itself just
  before the first value of another slot than the one it last sent (a slot beyond the device's is ignored);
- a value equal to the last one (per slot for ABS_MT_*; a key's pressed state) is dropped; none of the
  captures compared has fuzz on an axis (checked), so no value is averaged;
- a frame left with nothing in it is not passed (num_vals < 2 at SYN_REPORT).
pressured writes what it read to the clone, where the same core filters it once more (the clone has no
fuzz, and its state follows the same values, so it drops nothing more). So the clone's frames must be the
panel's, frame by frame, the same events in the same order, with two differences, and only these:
- ABS_MT_TOOL_TYPE: the clone always has the axis; pressured writes MT_TOOL_PALM to a cancelled slot and
  MT_TOOL_FINGER to it again just before its next tracking id (the panels compared have no tool type of
  their own). They are taken out of the comparison and checked on their own: as many palms as libinput
  cancelled touches, and every finger in the frame that begins the slot's next contact;
- ABS_MT_SLOT: marking a palm writes the palm's slot and then the current one again, so the core sends an
  ABS_MT_SLOT for the palm's slot, and one for the current slot before its next value, that the panel did
  not. So no ABS_MT_SLOT is compared as an event: every ABS_MT_* value is compared with the slot it belongs
  to (the last ABS_MT_SLOT before it in the stream, 0 at the start, as any reader counts it), which any
  ABS_MT_SLOT lost, added or misplaced in a way that moves a value to another slot would show."""
import re

from .harness import check

EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
MT_FIRST, MT_LAST = 0x30, 0x3D  # ABS_MT_TOUCH_MAJOR..ABS_MT_TOOL_Y: input_is_mt_value
MT_SLOT, MT_TOOL_TYPE, MT_TRACKING_ID = 0x2F, 0x37, 0x39
MT_TOOL_FINGER, MT_TOOL_PALM = 0, 2


def read_evemu(path):
    """An evemu file's axes ({code: (min, max, fuzz)}) and its events [(type, code, value)], in order."""
    axes, events = {}, []
    with open(path, errors="replace") as f:
        for line in f:
            m = re.match(r"^A: ([0-9a-fA-F]{2}) (-?\d+) (-?\d+) (-?\d+)", line)
            if m:
                axes[int(m.group(1), 16)] = (int(m.group(2)), int(m.group(3)), int(m.group(4)))
            m = re.match(r"^E: \S+ ([0-9a-fA-F]{4}) ([0-9a-fA-F]{4}) (-?\d+)", line)
            if m:
                events.append((int(m.group(1), 16), int(m.group(2), 16), int(m.group(3))))
    return axes, events


def frames_of(events):
    """The events between SYN_REPORTs, a list a frame (the SYN_REPORT left out)."""
    out, cur = [], []
    for e in events:
        if e[:2] == (EV_SYN, 0):
            out.append(cur)
            cur = []
        else:
            cur.append(e)
    return out


def kernel_pass(axes, events):
    """The frames the kernel passes on to a reader of a uinput device with these axes when `events` are
    written to it (the module's docstring says which rules, and where they are in the kernel)."""
    nslots = axes[MT_SLOT][1] + 1 if MT_SLOT in axes else 0
    slots = [{MT_TRACKING_ID: -1} for _ in range(nslots)]  # input_mt_init_slots: every slot without a contact
    staged = sent = 0
    values, keys = {}, set()
    out = []
    for frame in frames_of(events):
        passed = []
        for t, c, v in frame:
            if t == EV_ABS and c == MT_SLOT:
                staged = v if 0 <= v < nslots else staged
            elif t == EV_ABS and MT_FIRST <= c <= MT_LAST and nslots:
                if slots[staged].get(c, 0) != v:
                    slots[staged][c] = v
                    if staged != sent:
                        passed.append((EV_ABS, MT_SLOT, staged))
                        sent = staged
                    passed.append((t, c, v))
            elif t == EV_ABS:
                if values.get(c, 0) != v:
                    values[c] = v
                    passed.append((t, c, v))
            elif t == EV_KEY:
                if (c in keys) != bool(v):
                    (keys.add if v else keys.discard)(c)
                    passed.append((t, c, v))
            else:
                passed.append((t, c, v))
        if passed:
            out.append(passed)
    return out


def attributed(frames):
    """Each frame as its events with ABS_MT_* values paired with their slot, without ABS_MT_SLOT and
    ABS_MT_TOOL_TYPE; and the tool types apart, as (frame index, slot, value)."""
    slot, out, tools = 0, [], []
    for i, frame in enumerate(frames):
        kept = []
        for t, c, v in frame:
            mt = t == EV_ABS and MT_FIRST <= c <= MT_LAST
            if t == EV_ABS and c == MT_SLOT:
                slot = v
            elif mt and c == MT_TOOL_TYPE:
                tools.append((i, slot, v))
            else:
                kept.append((t, c, v, slot if mt else None))
        out.append(kept)
    return out, tools


def compare_frames(capture, recorded, cancelled, label, details):
    """The clone's frames (`recorded` by evemu-record) against the panel's (`kernel_pass` of the capture):
    same count, same events per frame; the clone's tool types: `cancelled` palms (libinput's cancels on the
    clone), a finger only where a slot's next contact begins."""
    axes, written = read_evemu(capture)
    fuzzy = [hex(c) for c, (_, _, fuzz) in axes.items() if fuzz]
    check(not fuzzy, f"{capture}: axes with fuzz {fuzzy}: the kernel would average their values")
    panel, tools_in = attributed(kernel_pass(axes, written))
    clone, tools = attributed(frames_of(read_evemu(recorded)[1]))
    check(not tools_in, f"{capture} has tool types of its own: not what this comparison allows for")
    differ = [i for i, (a, b) in enumerate(zip(panel, clone)) if a != b]
    palms = [(i, s) for i, s, v in tools if v == MT_TOOL_PALM]
    fingers = [(i, s) for i, s, v in tools if v == MT_TOOL_FINGER]
    late = [(i, s) for i, s in fingers if not any(e[1] == MT_TRACKING_ID and e[2] >= 0 and e[3] == s for e in clone[i])]
    other = [t for t in tools if t[2] not in (MT_TOOL_FINGER, MT_TOOL_PALM)]
    events = sum(len(f) for f in panel)
    details.append(f"{label}: evemu-record of the clone: {len(clone)} frames, the panel passed {len(panel)} "
                   f"({len(written)} events written, {events} passed, ABS_MT_SLOT apart): {len(panel) - len(clone)} "
                   f"lost, {len(differ)} differing; tool types: {len(palms)} palm, {len(fingers)} finger")
    first = differ[0] if differ else None
    check(len(clone) == len(panel), f"{label}: the clone has {len(clone)} frames, the panel {len(panel)}")
    check(first is None, f"{label}: frame {first} differs: panel {panel[first] if differ else ''}, "
                         f"clone {clone[first] if differ else ''}")
    check(len(palms) == cancelled and not other, f"{label}: tool types {tools} on the clone, {cancelled} "
                                                 f"touches cancelled")
    check(not late, f"{label}: a finger tool type outside a new contact's frame: {late}")
