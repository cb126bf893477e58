#!/usr/bin/env python3
"""expect-status.py STATUS CMD...: runs CMD, copies its output, and exits 0
only when CMD exited with STATUS (lit's shell has no $?)."""
import subprocess
import sys

result = subprocess.run(sys.argv[2:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
sys.stdout.write(result.stdout.decode(errors="replace"))
if result.returncode != int(sys.argv[1]):
    sys.exit("expected exit status %s, got %d" % (sys.argv[1], result.returncode))
