"""Bugs the differential test has found and that are not fixed yet. Without
--include-known-failures the test steers around each, so that a run fails
only on something new:

- `avoid`: the generator does not write the pattern (generator.py checks
  the name); for patterns that fail on every target or whose avoidance
  costs little coverage.
- `skip`: the case is written as always, but not run on `targets` when
  `applies(case)`; for patterns that fail on one target only, so that the
  others still run them.

Each entry names its reproducer (the smallest program found that shows it)
and the symptom. Delete an entry once its bug is fixed: the next runs then
generate or run the pattern again."""

TILE_TARGETS = ("tile-wormhole-n150", "tile-blackhole-p150")


def contractions(case):
    return sum(1 for op in case.ops
               if op.startswith(("matmul", "batch_matmul", "conv", "dot", "matvec",
                                 "vecmat")))


class Known:
    def __init__(self, name, reproducer, symptom, avoid=False, targets=(),
                 applies=None):
        self.name, self.reproducer, self.symptom = name, reproducer, symptom
        self.avoid, self.targets, self.applies = avoid, targets, applies


KNOWN_FAILURES = [
    Known("f16-batch-matmul-f32-host",
          "linalg.batch_matmul tensor<2x8x8xf16> x tensor<2x8x8xf16> into "
          "tensor<2x8x8xf32>",
          "--target=host: 'builtin.unrealized_conversion_cast' could not be "
          "lowered by the 'cpu' target (the 3-D mixed-precision "
          "vector.contract; 2-D matmul and the generic form pass)",
          avoid=True),
    Known("matmul-remainder-column-compile-time",
          "linalg.matmul 1024x1 x 1x17 in f32",
          "--target=host: 32 s to compile (2048 rows: 330 s; 768 rows: 3 s): "
          "the column past the 16-wide register tiles is copied back by a "
          "memref.copy of 512x1 per core, lowered to one straight-line block "
          "on which LLVM's X86 instruction selection takes quadratic time",
          avoid=True),
]

AVOIDED = {k.name for k in KNOWN_FAILURES if k.avoid}


def skipped(case, target):
    """The known failure for which `case` is not run on `target`, or None."""
    for k in KNOWN_FAILURES:
        if not k.avoid and target in k.targets and k.applies(case):
            return k
    return None
