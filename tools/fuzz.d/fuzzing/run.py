"""tools/fuzz's command line and run: each chosen target for N seconds over its corpus and fresh seeds, a line
each, and a summary whose `ok` lines .ci/run counts."""
import os
import re
import subprocess
import sys

from . import build, seeds, targets

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
OUT = os.path.join(".build", "fuzz")  # (from REPO)


class UsageError(Exception):
    """A command line tools/fuzz does not take; exit status 2."""


def parse(argv):
    """(seconds, build_only, action, target names) from the arguments; action is "run", "list" or "help"."""
    seconds, build_only, action, names = 60, False, "run", []
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--seconds":
            if not args or not args[0].isdigit():
                raise UsageError("--seconds needs a whole number")
            seconds = int(args.pop(0))
        elif a == "--build-only":
            build_only = True
        elif a == "--list":
            action = "list"
        elif a in ("-h", "--help"):
            return seconds, build_only, "help", names
        elif a.startswith("-"):
            raise UsageError(f"unknown option {a}")
        else:
            names.append(a)
    return seconds, build_only, action, names


def help_text():
    names = " ".join(t.name for t in targets.TARGETS)
    return f"""\
fuzz: builds the libFuzzer targets and runs each for a while.

  tools/fuzz [--seconds N] [--build-only] [TARGET...]     (default: 60 s each, every target)
  tools/fuzz --list                                       (the targets and what each feeds)
  targets: {names}

The Swift targets (Fuzz/<target>.swift) are built with swiftc directly, not as SwiftPM targets, so
`swift build` and `swift test` never see libFuzzer; libpressured's (clients/c/fuzz/fuzz-lines.c) with
clang, alone without the Swift modules. The targets are listed once, in tools/fuzz.d/targets.py.
Each target's corpus lives in .build/fuzz/corpus/<target> and grows from run to run; it starts from the
seeds: Tests/Fixtures (captures; for evdev-stream translated by Fuzz/make-seeds.py), docs and Fuzz/seeds
(configuration files, request lines). A crash is saved to .build/fuzz/crashes/<target>/; rerun one with
`.build/fuzz/<target> FILE`, and make it a regression test beside the tests of the code it crashed (the
bytes as a fixture or a literal). Exit status 1 when any target crashed."""


def list_lines():
    width = max(len(t.name) for t in targets.TARGETS)
    return [f"{t.name:<{width}}  {t.language:<5}  max {t.max_len:>5}  {t.feeds}" for t in targets.TARGETS]


def summary_line(name, seconds, log, corpus_units, status, log_path):
    """The target's line from its libFuzzer log: executions, coverage and corpus, or the crash and its input."""
    execs = (re.findall(r"^stat::number_of_executed_units: *(\S+)", log, re.M) or ["?"])[-1]
    # No `cov:` line when an input of the seed corpus crashes it.
    cov = (re.findall(r"cov: (\d+)", log) or ["?"])[-1]
    if status == 0:
        return f"{name:<16} ok     {execs:>10} execs  cov {cov:<6} corpus {corpus_units:<5} {seconds}s"
    artifact = (re.findall(r"^artifact_prefix=.*; Test unit written to (.*)$", log, re.M) or [None])[-1]
    why = next((l[:160] for l in log.splitlines()
                if re.search(r"Fatal error|ERROR: (AddressSanitizer|libFuzzer)", l)), "")
    return f"{name:<16} CRASH  {execs:>10} execs  {why}  input: {artifact or 'see ' + log_path}"


def fuzz(target, seconds):
    """Runs one target; returns its summary line and whether it crashed."""
    seed_dir = os.path.join(OUT, "seeds", target.name)
    seeds.make(REPO, target, seed_dir)
    corpus = os.path.join(OUT, "corpus", target.name)
    crashes = os.path.join(OUT, "crashes", target.name)
    logf = os.path.join(OUT, "logs", f"{target.name}.log")
    for d in (corpus, crashes, os.path.dirname(logf)):
        os.makedirs(d, exist_ok=True)
    print(f"fuzz: running {target.name} for {seconds}s (log {logf})", file=sys.stderr, flush=True)
    # The Swift runtime's own backtracer would catch the crash signal first and libFuzzer would not save the
    # input; turn it off. -rss_limit_mb keeps a runaway input from starving the shared machine.
    env = dict(os.environ, SWIFT_BACKTRACE="enable=no", ASAN_OPTIONS="detect_leaks=0")
    with open(logf, "w") as log:
        status = subprocess.run([os.path.join(OUT, target.name), f"-max_total_time={seconds}",
                                 f"-max_len={target.max_len}", "-timeout=10", "-rss_limit_mb=1024",
                                 "-print_final_stats=1", f"-artifact_prefix={crashes}/", corpus, seed_dir],
                                stdout=log, stderr=subprocess.STDOUT, env=env).returncode
    with open(logf, errors="replace") as f:
        text = f.read()
    units = sum(len(files) for _, _, files in os.walk(corpus))
    line = summary_line(target.name, seconds, text, units, status, logf)
    print(line, file=sys.stderr, flush=True)
    return line, status != 0


def main(argv):
    os.chdir(REPO)
    try:
        seconds, build_only, action, names = parse(argv)
        chosen = targets.select(names)
    except UsageError as e:
        print(f"fuzz: {e}", file=sys.stderr)
        return 2
    except targets.UnknownTarget as e:
        print(f"fuzz: no target {e} (known: {' '.join(t.name for t in targets.TARGETS)})", file=sys.stderr)
        return 2
    if action == "help":
        print(help_text())
        return 0
    if action == "list":
        print("\n".join(list_lines()))
        return 0
    try:
        build.build(chosen, OUT)
    except subprocess.CalledProcessError as e:
        print(f"fuzz: building failed: {e}", file=sys.stderr)
        return 1
    if build_only:
        return 0
    lines, failed = [], False
    for t in chosen:
        try:
            line, crashed = fuzz(t, seconds)
        except FileNotFoundError as e:  # a seed the table names is gone
            print(f"fuzz: {e}", file=sys.stderr)
            return 1
        lines.append(line)
        failed |= crashed
    print()
    print(f"fuzz summary ({seconds}s per target):")
    print("".join(f"  {l}\n" for l in lines), end="", flush=True)
    return 1 if failed else 0
