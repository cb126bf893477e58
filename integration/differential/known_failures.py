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

import re

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


def softmax_not_along_last(case):
    """Whether the case has a softmax along a dimension other than its
    tensor's last."""
    for m in re.finditer(r"linalg\.softmax dimension\((\d+)\) ins\([^:]*: tensor<([^>]*)>",
                         case.text):
        rank = m.group(2).count("x")
        if int(m.group(1)) != rank - 1:
            return True
    return False


KNOWN_FAILURES = [
    Known("tile-softmax-not-along-rows",
          "linalg.softmax dimension(0) of tensor<64x64xf32>",
          "tile-wormhole-n150 and tile-blackhole-p150: a wrong result "
          "(relative error 9.4e-02, 16x16: 2.0e-01); the mapped IR is right "
          "(a transpose, row reductions, then x[i, j] - max[j] through the map "
          "(d0, d1) -> (d1)), so the tile lowering takes the vector broadcast "
          "along the rows as one value per row",
          targets=TILE_TARGETS, applies=softmax_not_along_last),
]

AVOIDED = {k.name for k in KNOWN_FAILURES if k.avoid}


def skipped(case, target):
    """The known failure for which `case` is not run on `target`, or None."""
    for k in KNOWN_FAILURES:
        if not k.avoid and target in k.targets and k.applies(case):
            return k
    return None
