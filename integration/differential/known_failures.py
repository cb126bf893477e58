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


KNOWN_FAILURES = []

AVOIDED = {k.name for k in KNOWN_FAILURES if k.avoid}


def skipped(case, target):
    """The known failure for which `case` is not run on `target`, or None."""
    for k in KNOWN_FAILURES:
        if not k.avoid and target in k.targets and k.applies(case):
            return k
    return None
