#!/usr/bin/env python3
"""A tile chip description whose bf16 matmuls store their operands as block
floats: prints DESC with a copy of its first bf16 x bf16 -> f32 intrinsic,
renamed and given `operand_format` (bfp8 or bfp4) and the format's
`input_mantissa_bits` (the check's precision: 6 and 2, the magnitude bits
below the leading one), listed first so the scratchpad model picks it.

Usage: block_float_chip.py DESC.json bfp8|bfp4 [FIDELITY] > OUT.json
"""

import json
import sys

MANTISSA_BITS = {"bfp8": 6, "bfp4": 2}


def block_float_chip(chip, fmt, fidelity=None):
    """`chip` (a parsed description) with the block-float intrinsic added."""
    if fmt not in MANTISSA_BITS:
        raise ValueError(f"format must be bfp8 or bfp4, got {fmt!r}")
    base = next((m for m in chip["matrix"]
                 if m["a"] == "bf16" and m["b"] == "bf16" and m["acc"] == "f32"),
                None)
    if base is None:
        raise ValueError(f"{chip['name']} has no bf16 x bf16 -> f32 intrinsic")
    block = dict(base)
    block["name"] = base["name"].replace("bf16", fmt)
    block["operand_format"] = fmt
    block["input_mantissa_bits"] = MANTISSA_BITS[fmt]
    if fidelity:
        block["default_fidelity"] = fidelity
    chip["matrix"].insert(0, block)
    return chip


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.strip().splitlines()[-1])
    with open(sys.argv[1]) as f:
        chip = json.load(f)
    try:
        block_float_chip(chip, sys.argv[2],
                         sys.argv[3] if len(sys.argv) == 4 else None)
    except ValueError as e:
        sys.exit(f"block_float_chip.py: {e}")
    json.dump(chip, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
