"""Reading back what the guests wrote (OUT/results.txt: per scenario a line `PASS|FAIL <n> <title> (<seconds>
s)` and indented details, vmguest/runner.py) into the lines tools/vmtest prints, and the closing counts that
.ci/run adds up (`N passed, 0 failed`)."""
import re
from dataclasses import dataclass, field

HEAD = re.compile(r"^(PASS|FAIL) (\d+)(?: |$)")
# A failed scenario's lines said again at the end: the first, and up to this many that say why.
WHY = re.compile(r"FAILED|Error|error")
WHY_LINES = 3
WHY_WIDTH = 400


@dataclass
class Outcome:
    """The scenarios of one run, in the order they ran."""
    blocks: list = field(default_factory=list)  # (number, text of its lines)
    passed: int = 0
    failed: list = field(default_factory=list)  # numbers

    @property
    def failures(self):
        """The failed scenarios' first line and why, for the end of the output."""
        out = []
        for n, text in self.blocks:
            if n in self.failed:
                lines = text.splitlines()
                out += [l[:WHY_WIDTH] for l in lines[:1] + [l for l in lines[1:] if WHY.search(l)][:WHY_LINES]]
        return out

    def counts(self):
        return f"{self.passed} passed, {len(self.failed)} failed"


def split_blocks(text):
    """{n: its lines} from a results file: a scenario's block runs from its PASS/FAIL line to the next one."""
    found, current = {}, None
    for line in text.splitlines():
        m = HEAD.match(line)
        if m:
            current = int(m.group(2))
        if current is not None:
            found.setdefault(current, []).append(line)
    return found


def outcome(numbers, text, console_logs):
    """What the run of `numbers` gave; a scenario without a result failed (the VM stopped, or its guest driver
    did), pointing at the console logs."""
    found = split_blocks(text)
    result = Outcome()
    for n in numbers:
        lines = found.get(n) or [f"FAIL {n} (no result: see {console_logs})"]
        result.blocks.append((n, "\n".join(lines)))
        if lines[0].startswith("PASS"):
            result.passed += 1
        else:
            result.failed.append(n)
    return result


def closing(first, second=None, first_logs=""):
    """The closing lines of a run: its counts, or after a second run of the failed scenarios, whether they
    passed then (named) or failed again; and whether the run passed."""
    if second is None:
        return [first.counts()], not first.failed
    if not second.failed:
        again = " ".join(str(n) for n in first.failed)
        return [f"vmtest: passed only when run a second time: {again} (first run: {first_logs})",
                f"{first.passed + len(first.failed)} passed, 0 failed"], True
    return [first.counts()], False
