"""The fuzz targets, listed once: each target's name, what it feeds, its seeds and its longest input. A Swift
target's code is Fuzz/<name>.swift, linked against the library modules below; the C target is libpressured's
(clients/c/fuzz/fuzz-lines.c). tools/fuzz's help, `--list`, default run, seeds and limits come from here, and
tools/tests/test_fuzz_targets.py checks the table against Fuzz/ and Package.swift."""
from dataclasses import dataclass

SWIFT, C = "swift", "c"


@dataclass(frozen=True)
class Target:
    name: str
    feeds: str
    # Seeds, each a glob under the repository copied in, or the name of a maker in seeds.py (":name").
    seeds: tuple
    language: str = SWIFT
    # libFuzzer's -max_len: captures are bigger than its default 4 KiB (demo.evemu is 28 KiB).
    max_len: int = 4096

    @property
    def source(self):
        return f"Fuzz/{self.name}.swift" if self.language == SWIFT else "clients/c/fuzz/fuzz-lines.c"


TARGETS = (
    Target("evemu", "the evemu capture reader, its output replayed through the core",
           ("Tests/Fixtures/*.evemu",), max_len=65536),
    Target("libinput-record", "the libinput record (YAML) reader, its output replayed through the core",
           ("Tests/Fixtures/*.yml",), max_len=65536),
    Target("text-logs", "the evtest and getevent log readers, their output replayed through the core",
           ("Tests/Fixtures/*.evtest.txt", "Tests/Fixtures/*.getevent.txt"), max_len=65536),
    Target("configuration", "the configuration file parser",
           ("docs/pressured.conf", "clients/python/examples/*.conf", "Fuzz/seeds/config/*")),
    Target("protocol", "request lines, round-tripped through the client's encoder and decoders",
           ("Fuzz/seeds/protocol/*",)),
    Target("hub-requests", "request lines from several clients into the Hub, presses routed through their regions",
           (":hub_requests",)),
    Target("evdev-stream", "arbitrary evdev streams into TouchPipeline, checked against the wire's invariants",
           (":evdev_stream",), max_len=8192),
    Target("websocket", "the web bridge's frame decoder, message assembler, request head parser and session",
           ("Fuzz/seeds/websocket/*",)),
    Target("libpressured", "the C client's line reader and event parser (clang -fsanitize=fuzzer,address,undefined)",
           ("clients/c/fuzz/seeds/*",), language=C),
)
BY_NAME = {t.name: t for t in TARGETS}


@dataclass(frozen=True)
class Module:
    """A library the Swift targets link, compiled by swiftc with the fuzzer's coverage (its SwiftPM target)."""
    name: str
    path: str
    dependencies: tuple = ()


# In build order: a module after the modules it depends on (as Package.swift has them).
MODULES = (
    Module("PressureProtocol", "Sources/PressureProtocol"),
    Module("PressureCore", "Sources/PressureCore", ("PressureProtocol",)),
    Module("PressureCapture", "Sources/PressureCapture", ("PressureCore",)),
    Module("PressureHub", "Sources/PressureHub", ("PressureCore",)),
    # The checker the tests use too (a SwiftPM target under Tests/): one set of rules.
    Module("WireInvariants", "Tests/WireInvariants", ("PressureProtocol",)),
    Module("PressureWebSocket", "Sources/PressureWebSocket"),
    Module("PressureWebBridge", "Sources/PressureWebBridge", ("PressureProtocol", "PressureWebSocket")),
)

# The C target's sources beside its fuzz function: libpressured's reader and parser.
LIBPRESSURED_SOURCES = ("clients/c/src/line-reader.c", "clients/c/src/parse.c", "clients/c/src/event.c",
                        "clients/c/src/event-reply.c", "clients/c/src/device.c",
                        "clients/c/src/utf8.c")


class UnknownTarget(ValueError):
    """A target the table does not have."""


def select(words):
    """The targets named, each once, in the order given (every one, in the table's order, when none is);
    raises UnknownTarget."""
    for w in words:
        if w not in BY_NAME:
            raise UnknownTarget(w)
    return [BY_NAME[w] for w in dict.fromkeys(words)] if words else list(TARGETS)


def link_order():
    """The modules in the order a static link wants them: each before the modules it depends on."""
    return [m.name for m in reversed(MODULES)]
