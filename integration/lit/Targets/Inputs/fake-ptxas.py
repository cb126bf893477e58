#!/usr/bin/env python3
"""ptxas that reports more registers than it used: runs the CUDA toolkit's
ptxas with the given arguments, then writes its -v report with every
"Used N registers" of a kernel made "Used REGISTERS registers" (REGISTERS
from $FAKE_PTXAS_REGISTERS, default 168), so that the plugin's launch check
sees a kernel its block cannot hold.
"""
import os
import re
import shutil
import subprocess
import sys


def real_ptxas():
    for root in (os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root and os.access(os.path.join(root, "bin", "ptxas"), os.X_OK):
            return os.path.join(root, "bin", "ptxas")
    return shutil.which("ptxas")


def main():
    ptxas = real_ptxas()
    if ptxas is None:
        sys.exit("no ptxas")
    done = subprocess.run([ptxas] + sys.argv[1:], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    registers = os.environ.get("FAKE_PTXAS_REGISTERS", "168")
    sys.stdout.write(re.sub(r"Used \d+ registers",
                            "Used %s registers" % registers, done.stdout))
    sys.exit(done.returncode)


if __name__ == "__main__":
    main()
