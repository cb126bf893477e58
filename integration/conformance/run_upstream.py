#!/usr/bin/env python3
"""MLIR's own execution tests, compiled and run by Strata.

Runs every test under mlir/test/Integration/Dialect/{Linalg,Tosa,Vector}/CPU
of an LLVM source tree through strata-mlir-runner (--target=host) instead of
the test's mlir-opt pipeline and mlir-runner, and checks its output with the
test's own CHECK lines through FileCheck. The tests are not copied into
Strata: give the tree with --llvm-src (an llvm-project checkout, or
Debian's llvm-toolchain-22 source package unpacked), or let the script fetch
the source package matching the installed LLVM with `apt-get source` (needs
a deb-src line for the packages' origin).

Each test ends as one of:
  pass         every mlir-runner invocation of its RUN lines, run by Strata,
               satisfies its FileCheck line
  wrong        Strata compiled and ran it, but the output fails the CHECK
               lines (a wrong answer: a bug), unless MLIR's own lowering
               (one-shot bufferization and -test-lower-to-llvm, run by
               mlir-runner with MLIR's utilities) prints the very same text:
               then the CHECK lines are of another LLVM version (not run)
  crash        strata-mlir-runner died on a signal or hung (a bug)
  rejected     strata-mlir-runner refused it with a diagnostic (the reason
               column: its first error)
  not run      a test this script cannot run as Strata: hardware-gated
               folders (Arm SVE/SME/Neon, AMX, AVX-512 emulators), tests
               that check MLIR's runtime-verification messages, files with
               no mlir-runner RUN line, and files that the installed LLVM's
               own mlir-opt cannot parse either (a test of another LLVM
               version than the installed one)

Exit status: 0 when nothing is wrong or crashed, 1 otherwise, 2 on a usage
error or when no LLVM source tree can be found.

  integration/conformance/run_upstream.py --llvm-src ~/llvm-project \
      --bin-dir build/bin --report conformance.md
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tarfile

SUITES = ["Dialect/Linalg/CPU", "Dialect/Tosa/CPU", "Dialect/Vector/CPU"]
# Folders whose tests need a CPU feature or emulator this script does not
# provide (their lit.local.cfg files gate them on it upstream as well).
GATED = {"ArmSVE": "needs Arm SVE", "ArmSME": "needs Arm SME",
         "ArmNeon": "needs Arm Neon", "AMX": "needs Intel AMX",
         "X86Vector": "needs AVX-512 (X86Vector dialect)",
         "X86": "needs AVX-512 (X86 dialect)"}
RUNNERS = ("mlir-runner", "mlir-cpu-runner")


def deb_src_line():
    """The deb-src line of the archive libmlir-22-dev was installed from."""
    policy = subprocess.run(["apt-cache", "policy", "libmlir-22-dev"],
                            capture_output=True, text=True).stdout
    installed = False
    for line in policy.splitlines():
        if line.strip().startswith("***"):
            installed = True
            continue
        m = re.match(r"\s+\d+ (https?://\S+) (\S+)/(\S+) ", line)
        if installed and m:
            uri = m.group(1)
            # The key the archive's deb entry names (a deb822 Signed-By):
            # apt refuses one archive with two different keys.
            options = ""
            folder = "/etc/apt/sources.list.d"
            for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
                if not name.endswith(".sources"):
                    continue
                for stanza in open(os.path.join(folder, name)).read().split("\n\n"):
                    fields = dict(l.split(":", 1) for l in stanza.splitlines()
                                  if ":" in l and not l.startswith("#"))
                    fields = {k.strip(): v.strip() for k, v in fields.items()}
                    if uri.rstrip("/") in fields.get("URIs", "").rstrip("/") \
                            and "Signed-By" in fields:
                        options = "[signed-by=%s] " % fields["Signed-By"]
            return "deb-src %s%s %s %s" % (options, uri, m.group(2),
                                           m.group(3))
    return None


def fetch_debian_source(cache, add_deb_src=False):
    """Unpacks the installed LLVM's Debian source package's MLIR integration
    tests into `cache`; returns the tree's root or None with a message."""
    root = os.path.join(cache, "llvm-src")
    if os.path.isdir(os.path.join(root, "mlir", "test", "Integration")):
        return root
    version = subprocess.run(
        ["dpkg-query", "-W", "-f=${Version}", "libmlir-22-dev"],
        capture_output=True, text=True).stdout.strip()
    if not version:
        print("error: libmlir-22-dev is not installed; give --llvm-src",
              file=sys.stderr)
        return None
    os.makedirs(cache, exist_ok=True)
    if add_deb_src:
        origin = deb_src_line()
        if origin:
            with open("/etc/apt/sources.list.d/strata-deb-src.list", "w") as f:
                f.write(origin + "\n")
            subprocess.run(["apt-get", "update", "-qq"], capture_output=True)
    got = subprocess.run(
        ["apt-get", "source", "--download-only",
         "llvm-toolchain-22=" + version], cwd=cache,
        capture_output=True, text=True)
    if add_deb_src:  # the machine's sources as they were
        try:
            os.remove("/etc/apt/sources.list.d/strata-deb-src.list")
        except OSError:
            pass
    tarballs = [f for f in os.listdir(cache) if f.endswith(".orig.tar.xz")]
    if got.returncode != 0 or not tarballs:
        print("error: `apt-get source --download-only llvm-toolchain-22=%s` "
              "failed:\n%s\nit needs a deb-src line matching the installed "
              "packages' origin (--add-deb-src writes it), here:\n  %s\n"
              "or give an llvm-project tree with --llvm-src" %
              (version, got.stderr.strip(), deb_src_line() or "(unknown)"),
              file=sys.stderr)
        return None
    with tarfile.open(os.path.join(cache, tarballs[0])) as tar:
        members = [m for m in tar.getmembers()
                   if "/mlir/test/Integration/" in m.name]
        tar.extractall(cache, members=members)
    top = members[0].name.split("/")[0]
    os.rename(os.path.join(cache, top), root)
    return root


def directives(text, keyword):
    """The `// KEYWORD:` lines of a test, continuation lines joined, with
    each one's line number."""
    out, pending, start = [], None, 0
    for number, line in enumerate(text.splitlines(), 1):
        m = re.match(r"\s*//\s*%s:(.*)$" % keyword, line)
        if not m:
            continue
        body = m.group(1).strip()
        if pending is None:
            pending, start = "", number
        if body.endswith("\\"):
            pending += body[:-1] + " "
            continue
        out.append((start, pending + body))
        pending = None
    return out


def run_commands(text):
    """The RUN commands with lit's DEFINE/REDEFINE substitutions applied in
    file order."""
    events = [(n, "RUN", c) for n, c in directives(text, "RUN")]
    events += [(n, "DEFINE", c) for n, c in directives(text, "DEFINE")]
    events += [(n, "DEFINE", c) for n, c in directives(text, "REDEFINE")]
    defines, commands = {}, []
    for _, kind, body in sorted(events):
        if kind == "DEFINE":
            name, _, value = body.partition("=")
            defines[name.strip()] = value.strip()
            continue
        for _ in range(10):  # substitutions may name substitutions
            expanded = body
            for name, value in defines.items():
                expanded = expanded.replace(name, value)
            if expanded == body:
                break
            body = expanded
        commands.append(body)
    return commands


def invocations(commands):
    """(entry, result type, stderr too, FileCheck arguments) of each
    mlir-runner invocation piped into FileCheck."""
    found = []
    for command in commands:
        for chain in command.split("&&"):
            stages = [s.strip() for s in chain.split("|")]
            for i, stage in enumerate(stages):
                words = stage.split()
                if not words or os.path.basename(words[0]) not in RUNNERS:
                    continue
                entry, result = "main", "void"
                for j, w in enumerate(words):
                    if w in ("-e", "--e") and j + 1 < len(words):
                        entry = words[j + 1]
                    elif w.startswith(("-e=", "--e=")):
                        entry = w.split("=", 1)[1]
                    elif "entry-point-result=" in w:
                        result = w.split("=", 1)[1]
                check = next((s for s in stages[i + 1:]
                              if s.split() and s.split()[0] == "FileCheck"),
                             None)
                if check is None:
                    continue
                args = [a for a in check.split()[1:] if a != "%s"]
                found.append((entry, result, "2>&1" in stage, tuple(args)))
    return list(dict.fromkeys(found))


def first_error(stderr):
    for line in stderr.splitlines():
        if "error:" in line:
            return line.split("error:", 1)[1].strip()
    lines = [l for l in stderr.splitlines() if l.strip()]
    return lines[-1].strip() if lines else "no message"


def invalid_for_mlir_opt(path, mlir_opt):
    """mlir-opt's first error when the installed LLVM itself rejects the
    file (after dropping what its test pipeline would: nothing), else None."""
    parsed = subprocess.run([mlir_opt, path, "-o", os.devnull],
                            capture_output=True, text=True)
    return first_error(parsed.stderr) if parsed.returncode else None


def mask(text):
    return re.sub(r"base@ = 0x[0-9a-f]+", "base@ = ADDRESS", text)


def same_as_mlir(path, entry, result, with_stderr, output, mlir_opt,
                 timeout):
    """Whether MLIR's own lowering of the test prints `output` too."""
    lib = os.path.join(os.path.dirname(os.path.dirname(mlir_opt)), "lib")
    runner = os.path.join(os.path.dirname(mlir_opt), "mlir-runner")
    utils = ",".join(os.path.join(lib, name) for name in
                     ["libmlir_runner_utils.so", "libmlir_c_runner_utils.so"])
    try:
        lowered = subprocess.run(
            [mlir_opt, path, "-test-transform-dialect-erase-schedule",
             "-one-shot-bufferize=bufferize-function-boundaries",
             "-test-vector-scan-lowering", "-convert-math-to-funcs",
             "-test-lower-to-llvm"],
            capture_output=True, text=True, timeout=timeout)
        if lowered.returncode:
            return False
        ran = subprocess.run(
            [runner, "-e", entry, "-entry-point-result=" + result,
             "-shared-libs=" + utils], input=lowered.stdout,
            capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False
    theirs = ran.stdout + (ran.stderr if with_stderr else "")
    return ran.returncode == 0 and mask(theirs) == mask(output)


def run_test(path, text, bin_dir, filecheck, mlir_opt, timeout):
    """(status, reason) of one test."""
    for folder, why in GATED.items():
        if "/%s/" % folder in path:
            return "not run", why
    commands = run_commands(text)
    if any("generate-runtime-verification" in c for c in commands):
        return "not run", "checks MLIR's runtime-verification messages"
    runs = invocations(commands)
    if not runs:
        return "not run", "no mlir-runner RUN line piped into FileCheck"
    runner = os.path.join(bin_dir, "strata-mlir-runner")
    for entry, result, with_stderr, check_args in runs:
        try:
            ran = subprocess.run(
                [runner, path, "-e", entry, "-entry-point-result=" + result],
                capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return "crash", "no result in %d s (-e %s)" % (timeout, entry)
        if ran.returncode < 0:
            return "crash", "signal %d (-e %s)" % (-ran.returncode, entry)
        if ran.returncode != 0:
            invalid = invalid_for_mlir_opt(path, mlir_opt)
            if invalid:
                return "not run", "not valid for the installed LLVM (" \
                    "mlir-opt: %s)" % invalid
            return "rejected", first_error(ran.stderr)
        output = ran.stdout + (ran.stderr if with_stderr else "")
        checked = subprocess.run([filecheck, path] + list(check_args),
                                 input=output, capture_output=True,
                                 text=True)
        if checked.returncode != 0:
            if same_as_mlir(path, entry, result, with_stderr, output,
                            mlir_opt, timeout):
                return "not run", "its CHECK lines fail MLIR's own " \
                    "lowering alike (same output): another LLVM's test"
            return "wrong", first_error(checked.stderr) + \
                " (-e %s %s)" % (entry, " ".join(check_args))
    return "pass", ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--llvm-src", help="llvm-project tree (default: "
                        "fetch Debian's llvm-toolchain-22 source package)")
    parser.add_argument("--cache", default="build/conformance",
                        help="where a fetched source package is unpacked")
    parser.add_argument("--add-deb-src", action="store_true",
                        help="without --llvm-src: first add the deb-src line "
                        "of the installed LLVM's archive (root)")
    parser.add_argument("--bin-dir", default="build/bin")
    parser.add_argument("--filecheck", default="/usr/lib/llvm-22/bin/FileCheck")
    parser.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt")
    parser.add_argument("--timeout", type=int, default=120)
    parser.add_argument("--filter", default="", help="regex on test paths")
    parser.add_argument("--suite", action="append", default=[],
                        help="another folder under mlir/test/Integration "
                        "to run (repeatable; e.g. Dialect/Arith/CPU)")
    parser.add_argument("--report", help="also write the table (markdown)")
    args = parser.parse_args()

    root = args.llvm_src or fetch_debian_source(args.cache, args.add_deb_src)
    if not root:
        return 2
    base = os.path.join(root, "mlir", "test", "Integration")
    if not os.path.isdir(base):
        print("error: --llvm-src %s: no mlir/test/Integration folder" % root,
              file=sys.stderr)
        return 2
    if not shutil.which(args.filecheck):
        print("error: --filecheck %s: not found" % args.filecheck,
              file=sys.stderr)
        return 2

    rows = []
    for suite in SUITES + args.suite:
        folder = os.path.join(base, suite)
        for dirpath, _, files in sorted(os.walk(folder)):
            for name in sorted(files):
                if not name.endswith(".mlir"):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, base)
                if args.filter and not re.search(args.filter, rel):
                    continue
                with open(path) as f:
                    text = f.read()
                status, reason = run_test(path, text, args.bin_dir,
                                          args.filecheck, args.mlir_opt,
                                          args.timeout)
                rows.append((rel, status, reason))
                print("%-9s %s%s" % (status, rel,
                                     ": " + reason if reason else ""),
                      flush=True)

    counts = {}
    for _, status, _ in rows:
        counts[status] = counts.get(status, 0) + 1
    summary = ", ".join("%d %s" % (counts[s], s) for s in
                        ["pass", "wrong", "crash", "rejected", "not run"]
                        if s in counts)
    print("\n%d tests: %s" % (len(rows), summary))
    if args.report:
        with open(args.report, "w") as out:
            out.write("| test | result | reason |\n|---|---|---|\n")
            for rel, status, reason in rows:
                out.write("| %s | %s | %s |\n" %
                          (rel, status, reason.replace("|", "\\|")))
            out.write("\n%d tests: %s\n" % (len(rows), summary))
    return 1 if counts.get("wrong") or counts.get("crash") else 0


if __name__ == "__main__":
    sys.exit(main())
