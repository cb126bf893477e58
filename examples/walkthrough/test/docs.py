#!/usr/bin/env python3
"""Runs the commands of docs/walkthrough.md and compares their outputs.

  docs.py (--check | --update) WALKTHROUGH_MD --bin BIN --plugin PLUGIN
          --root STRATA_SOURCE

Every ```console block of the walkthrough holds commands (lines starting
with "$ ") each followed by its output. The commands run in
examples/walkthrough with BIN first on PATH; the plugin path the walkthrough
builds (build/installed/libStrataPlugin_npu.so) is replaced by PLUGIN.
--check fails on any difference (and shows it); --update rewrites the
outputs in place. ```sh blocks (set-up and builds) are shown, not run.
"""
import argparse
import difflib
import os
import re
import subprocess
import sys

DOC_PLUGIN = "build/installed/libStrataPlugin_npu.so"

parser = argparse.ArgumentParser()
mode = parser.add_mutually_exclusive_group(required=True)
mode.add_argument("--check", action="store_true")
mode.add_argument("--update", action="store_true")
parser.add_argument("doc")
parser.add_argument("--bin", required=True)
parser.add_argument("--plugin", required=True)
parser.add_argument("--root", required=True)
args = parser.parse_args()

cwd = os.path.join(args.root, "examples", "walkthrough")
env = dict(os.environ, PATH=os.path.abspath(args.bin) + os.pathsep +
           os.environ.get("PATH", ""))


def run(command):
    real = command.replace(DOC_PLUGIN, os.path.abspath(args.plugin))
    done = subprocess.run(real, shell=True, cwd=cwd, env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          timeout=600)
    return done.stdout.replace(os.path.abspath(args.plugin), DOC_PLUGIN)


lines = open(args.doc).read().split("\n")
out, failures, commands, i = [], [], 0, 0
while i < len(lines):
    out.append(lines[i])
    if lines[i].strip() != "```console":
        i += 1
        continue
    i += 1
    block_end = i
    while lines[block_end].strip() != "```":
        block_end += 1
    block = lines[i:block_end]
    j = 0
    while j < len(block):
        if not block[j].startswith("$ "):
            sys.exit(f"docs: {args.doc}:{i + j + 1}: expected a command "
                     f"starting with '$ ', got: {block[j]}")
        command = block[j][2:]
        k = j + 1
        while k < len(block) and not block[k].startswith("$ "):
            k += 1
        expected = block[j + 1:k]
        got = run(command).rstrip("\n").split("\n")
        got = [] if got == [""] else got
        commands += 1
        if got != expected:
            failures.append(command)
            if args.check:
                print(f"docs: {args.doc}:{i + j + 1}: the output of\n  "
                      f"{command}\nchanged:")
                sys.stdout.writelines(
                    l + "\n" for l in difflib.unified_diff(
                        expected, got, "walkthrough.md", "now", lineterm=""))
        out.append(block[j])
        out.extend(got)
        j = k
    out.append("```")
    i = block_end + 1

if args.update:
    open(args.doc, "w").write("\n".join(out))
    print(f"docs: {commands} commands, {len(failures)} outputs updated")
elif failures:
    sys.exit(f"docs: FAIL: {len(failures)} of {commands} commands print "
             "something else than docs/walkthrough.md shows (run "
             "test/docs.py --update to regenerate)")
else:
    print(f"docs: {commands} commands print what docs/walkthrough.md shows")
