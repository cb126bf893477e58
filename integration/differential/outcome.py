"""What one tool run on one generated case means: passed, unsupported (a
clean diagnostic from a target that may refuse the program: the reason,
normalized so that equal reasons count together) or failed (a crash, a
verifier or internal error, a hang, a wrong result, a run-time error)."""
import re
import signal

PASSED, UNSUPPORTED, FAILED = "passed", "unsupported", "failed"
# Not run: the case shows a known failure on this target (known_failures.py).
KNOWN = "known"

# Output that only a crash prints (LLVM's handlers, glibc, libstdc++).
CRASH_MARKERS = [
    "PLEASE submit a bug report", "Stack dump:", "LLVM ERROR:",
    "Assertion", "UNREACHABLE executed", "terminate called",
    "Segmentation fault", "double free", "corrupted", "AddressSanitizer",
]

# Diagnostics of the compiler's own invariants, never a refusal: an op's
# verifier after a pass ("'memref.subview' op expected ..."; Strata's
# passes refuse programs with emitError, whose text has no "'x.y' op "),
# upstream conversions that left IR behind, an assembler refusing the
# generated code.
INTERNAL_PATTERNS = [
    re.compile(r"error: '[a-z_0-9]+\.[a-z_0-9.]+' op "),
    re.compile(r"failed to legalize"),
    re.compile(r"failed to materialize"),
    re.compile(r"does not dominate"),
    re.compile(r"unrealized_conversion_cast"),
    re.compile(r"redefinition of"),
    re.compile(r"ptxas failed"),
]


class Outcome:
    def __init__(self, status, reason, detail=""):
        self.status, self.reason, self.detail = status, reason, detail

    def __repr__(self):
        return f"{self.status}: {self.reason}"


def first_error(text):
    """The first diagnostic, without its file:line:col and with numbers as
    N, so that the same refusal of different shapes reads the same."""
    for line in text.splitlines():
        m = re.search(r"error: (.*)", line)
        if m:
            msg = m.group(1)
            msg = re.sub(r'loc\("[^"]*"[:\d]*\)', "loc(..)", msg)
            msg = re.sub(r"/[^\s':]*", "PATH", msg)
            # Sizes and counts, not the digits of names (bf16, sm_90a).
            msg = re.sub(r"(?<![\w.])\d+(?![\w.])", "N", msg)
            return msg[:160]
    return ""


def crash(rc, output):
    if rc < 0:
        try:
            name = signal.Signals(-rc).name
        except ValueError:
            name = f"signal {-rc}"
        return f"crash ({name})"
    if rc in (134, 139):  # a shell's report of SIGABRT / SIGSEGV
        return f"crash (exit {rc})"
    for marker in CRASH_MARKERS:
        if marker in output:
            return f"crash ({marker.rstrip(':')})"
    return None


def classify(rc, stdout, stderr, results, may_refuse, runs, timed_out):
    """Classifies one strata-run --check (runs) or strata-compile (not
    runs). `results`: how many results the case's function has;
    `may_refuse`: a clean diagnostic is 'unsupported' rather than a
    failure (the targets that do not take every program)."""
    output = stdout + "\n" + stderr
    if timed_out:
        return Outcome(FAILED, "timeout (hang?)")
    why = crash(rc, output)
    if why:
        return Outcome(FAILED, why, first_error(output))
    checks = re.findall(r"check result #(\d+) .* (PASS|FAIL)$", stdout, re.M)
    if runs and rc in (0, 2) and checks:
        if rc == 2 or any(v == "FAIL" for _, v in checks):
            bad = [l for l in stdout.splitlines() if l.endswith("FAIL")]
            return Outcome(FAILED, "mismatch", bad[0] if bad else "")
        if len(checks) != results:
            return Outcome(FAILED, f"checked {len(checks)} of {results} results")
        return Outcome(PASSED, "")
    if rc == 0:
        if runs:
            return Outcome(FAILED, "no check result printed")
        return Outcome(PASSED, "")
    reason = first_error(output) or f"exit {rc} without a diagnostic"
    for pattern in INTERNAL_PATTERNS:
        if pattern.search(output):
            return Outcome(FAILED, "internal error", reason)
    # With --log-level=info the tools log each stage: strata-run lowers
    # the reference after writing the program's artifact, so an error
    # after the reference finished is the accepted program failing to
    # load or run, and a failed reference is never the target's business.
    if "reference lowering failed" in stderr:
        return Outcome(FAILED, "reference lowering failed", reason)
    if runs and "reference lowering finished" in stderr:
        return Outcome(FAILED, "run-time error", reason)
    if may_refuse and reason.startswith("exit "):
        return Outcome(FAILED, reason)
    if may_refuse:
        return Outcome(UNSUPPORTED, reason)
    return Outcome(FAILED, "rejected", reason)
