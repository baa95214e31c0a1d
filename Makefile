# Install pressured on a kiosk: release binaries with the Swift runtime linked in (a kiosk has no Swift),
# the systemd units (the metrics timer installed but not enabled), the udev rules, commented default
# configurations, the docs and man pages, and the web bridge's JS module and demo page.
#
#   make                      build the release binaries
#   make install              install under PREFIX (default /usr), into DESTDIR if set (packaging)
#   make uninstall            remove what install put there (the configuration in /etc is kept if edited)
#
# systemd and udev directories come from pkg-config (systemd.pc's systemdsystemunitdir and sysusersdir,
# udev.pc's udevdir) where available, else Debian's defaults; override them on the command line.

PREFIX      ?= /usr
DESTDIR     ?=
BINDIR      ?= $(PREFIX)/bin
MANDIR      ?= $(PREFIX)/share/man
DOCDIR      ?= $(PREFIX)/share/doc/pressured
WEBDIR      ?= $(PREFIX)/share/pressured/web
SYSCONFDIR  ?= /etc
UNITDIR     ?= $(shell pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null || echo /lib/systemd/system)
SYSUSERSDIR ?= $(shell pkg-config --variable=sysusersdir systemd 2>/dev/null || echo /usr/lib/sysusers.d)
UDEVDIR     ?= $(shell pkg-config --variable=udevdir udev 2>/dev/null || echo /lib/udev)
SWIFT       ?= swift
# more flags for `swift build` (debian/rules: the linker's hardening flags and a build ID)
SWIFTFLAGS  ?=

BUILD_FLAGS = -c release --static-swift-stdlib $(SWIFTFLAGS)
BIN_PATH    = $(shell $(SWIFT) build $(BUILD_FLAGS) --show-bin-path)

WEBFILES  = pressured.js pressured-dom.js pressured-viewport.js pressured-links.js pressured-compat.js pressured.d.ts index.html \
            electron-main.js electron-preload.cjs package.json

INSTALLED = $(BINDIR)/pressured $(BINDIR)/pressurectl $(BINDIR)/pressured-web \
	$(UNITDIR)/pressured.service $(UNITDIR)/pressured.socket $(SYSUSERSDIR)/pressured.conf \
	$(UNITDIR)/pressured-metrics.service $(UNITDIR)/pressured-metrics.timer \
	$(UNITDIR)/pressured-web.service $(UNITDIR)/pressured-web.socket $(SYSUSERSDIR)/pressured-web.conf \
	$(UDEVDIR)/rules.d/70-pressured.rules $(DOCDIR)/protocol.md $(DOCDIR)/gestures.md \
	$(DOCDIR)/configuration.md $(DOCDIR)/actions.md $(DOCDIR)/metrics.md $(DOCDIR)/web.md $(MANDIR)/man8/pressured.8 $(MANDIR)/man1/pressurectl.1 \
	$(MANDIR)/man8/pressured-web.8 $(addprefix $(WEBDIR)/,$(WEBFILES))

.PHONY: all build install uninstall print-dirs
all: build

build:
	$(SWIFT) build $(BUILD_FLAGS) --product pressured
	$(SWIFT) build $(BUILD_FLAGS) --product pressurectl
	$(SWIFT) build $(BUILD_FLAGS) --product pressured-web

install: build
	install -Dm755 $(BIN_PATH)/pressured $(DESTDIR)$(BINDIR)/pressured
	install -Dm755 $(BIN_PATH)/pressurectl $(DESTDIR)$(BINDIR)/pressurectl
	install -Dm755 $(BIN_PATH)/pressured-web $(DESTDIR)$(BINDIR)/pressured-web
	sed 's|/usr/bin/|$(BINDIR)/|g' systemd/pressured.service > pressured.service.tmp
	install -Dm644 pressured.service.tmp $(DESTDIR)$(UNITDIR)/pressured.service
	rm -f pressured.service.tmp
	install -Dm644 systemd/pressured.socket $(DESTDIR)$(UNITDIR)/pressured.socket
	sed 's|/usr/bin/|$(BINDIR)/|g' systemd/pressured-metrics.service > pressured-metrics.service.tmp
	install -Dm644 pressured-metrics.service.tmp $(DESTDIR)$(UNITDIR)/pressured-metrics.service
	rm -f pressured-metrics.service.tmp
	install -Dm644 systemd/pressured-metrics.timer $(DESTDIR)$(UNITDIR)/pressured-metrics.timer
	install -Dm644 systemd/pressured.sysusers $(DESTDIR)$(SYSUSERSDIR)/pressured.conf
	sed 's|/usr/bin/|$(BINDIR)/|g' systemd/pressured-web.service > pressured-web.service.tmp
	install -Dm644 pressured-web.service.tmp $(DESTDIR)$(UNITDIR)/pressured-web.service
	rm -f pressured-web.service.tmp
	install -Dm644 systemd/pressured-web.socket $(DESTDIR)$(UNITDIR)/pressured-web.socket
	install -Dm644 systemd/pressured-web.sysusers $(DESTDIR)$(SYSUSERSDIR)/pressured-web.conf
	for f in $(WEBFILES); do install -Dm644 web/$$f $(DESTDIR)$(WEBDIR)/$$f; done
	test -e $(DESTDIR)$(SYSCONFDIR)/pressured/web.conf || \
		install -Dm644 docs/web.conf $(DESTDIR)$(SYSCONFDIR)/pressured/web.conf
	install -Dm644 udev-rules/70-pressured.rules $(DESTDIR)$(UDEVDIR)/rules.d/70-pressured.rules
	test -e $(DESTDIR)$(SYSCONFDIR)/pressured/pressured.conf || \
		install -Dm644 docs/pressured.conf $(DESTDIR)$(SYSCONFDIR)/pressured/pressured.conf
	install -Dm644 docs/protocol.md $(DESTDIR)$(DOCDIR)/protocol.md
	install -Dm644 docs/gestures.md $(DESTDIR)$(DOCDIR)/gestures.md
	install -Dm644 docs/configuration.md $(DESTDIR)$(DOCDIR)/configuration.md
	install -Dm644 docs/actions.md $(DESTDIR)$(DOCDIR)/actions.md
	install -Dm644 docs/metrics.md $(DESTDIR)$(DOCDIR)/metrics.md
	install -Dm644 docs/web.md $(DESTDIR)$(DOCDIR)/web.md
	install -Dm644 docs/man/pressured-web.8 $(DESTDIR)$(MANDIR)/man8/pressured-web.8
	install -Dm644 docs/man/pressured.8 $(DESTDIR)$(MANDIR)/man8/pressured.8
	install -Dm644 docs/man/pressurectl.1 $(DESTDIR)$(MANDIR)/man1/pressurectl.1

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	-rmdir $(DESTDIR)$(DOCDIR) $(DESTDIR)$(WEBDIR) $(DESTDIR)$(PREFIX)/share/pressured 2>/dev/null
	cmp -s docs/web.conf $(DESTDIR)$(SYSCONFDIR)/pressured/web.conf && \
		rm -f $(DESTDIR)$(SYSCONFDIR)/pressured/web.conf || true
	cmp -s docs/pressured.conf $(DESTDIR)$(SYSCONFDIR)/pressured/pressured.conf && \
		rm -f $(DESTDIR)$(SYSCONFDIR)/pressured/pressured.conf && \
		rmdir $(DESTDIR)$(SYSCONFDIR)/pressured 2>/dev/null || true

print-dirs:
	@echo "BINDIR=$(BINDIR) UNITDIR=$(UNITDIR) SYSUSERSDIR=$(SYSUSERSDIR) UDEVDIR=$(UDEVDIR) SYSCONFDIR=$(SYSCONFDIR) WEBDIR=$(WEBDIR)"
