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
    Known("tile-gelu-erf",
          "0.5 x (1 + erf(x / sqrt 2)) over tensor<32x32xf32>",
          "strata-run --target=tile-wormhole-n150 (and p150) --check: "
          "relative error 1.8e-4 against the tolerance 1e-4 of f32, on every "
          "seed and shape: the vector engine's GELU (erf form) is less "
          "accurate than f32",
          targets=TILE_TARGETS, applies=lambda case: "gelu_erf" in case.ops),
    Known("gelu-erf-tail-of-a-sum",
          "a sum of 61x17 values (-5.95 with seed 2065988261), then GELU in "
          "its erf form and x / (1 + |x|) (seed 66, case 40)",
          "--target=host --check: relative error 1.0: 1 + erf(x / sqrt 2) "
          "of a sum far below zero cancels to 0 in f32 (exact: 2.7e-9, "
          "GELU -7.9e-9), which the f64 reference keeps; the relative "
          "error of a scalar result has nothing to dilute it. A false "
          "positive of the check against an f64 reference on an "
          "ill-conditioned expression, not of the code",
          targets=("host",),
          applies=lambda case: "gelu_erf" in case.ops
          and "reduce_sum" in case.ops),
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
    Known("f16-intermediates-f32-tolerance",
          "linalg.tanh on tensor<8x64xf16>, then linalg.matmul with a "
          "64x16 f16 weight into tensor<8x16xf32>",
          "--target=host --check: relative error 2.1e-4 against the f32 "
          "result's tolerance 1e-4; the program rounds its f16 "
          "intermediates, the reference computes them in f32/f64: a false "
          "positive of the check (right numbers for f16), not of the code; "
          "bf16 likewise, 1.5e-3 on the host and the tile chips",
          avoid=True),
    Known("tile-tf32-exp-tolerance",
          "linalg.matmul 64x31 x 31x31 in f32, expanded to 64x31x1, then exp "
          "and a scale (seed 424242, case 0)",
          "--target=tile-wormhole-n150 (and p150) --check: relative error "
          "3.3e-3 against 2.5e-3, the tolerance of one product of tf32 "
          "inputs; exp turns the product's absolute error (tf32's relative "
          "error times |x|, x up to about 5 here) into a relative one: a "
          "false positive of the check's tolerance, as "
          "tile-tf32-chain-tolerance (such programs were refused before "
          "reshapes ran on the tile chips)",
          targets=TILE_TARGETS,
          applies=lambda case: case.dtype == "f32" and contractions(case) >= 1
          and "exp" in case.ops),
    Known("tile-cancelled-sum-tolerance",
          "bf16: a tanh GELU of 33x256, linalg.matmul with 256x256, the row "
          "sums s, then x / (1 + s^2) and a clamp (seed 397328847, case 21)",
          "--target=tile-wormhole-n150 (and p150) --check: relative error "
          "2.75e-2 against bf16's 2e-2: the product's rounding (bf16 "
          "operands, or tf32 ones in f32) is an absolute error of each row "
          "sum; where the sum cancels to a value near that error, "
          "1 / (1 + s^2) carries it whole. A false positive of the check's "
          "tolerance, which does not follow error through the program",
          targets=TILE_TARGETS,
          applies=lambda case: contractions(case) >= 1
          and "reduce_sum" in case.ops and "div" in case.ops),
    Known("f16-cancelled-sum-tolerance",
          "seed 2298381541 case 4: linalg.dot of two tensor<4xf16> (-0.33), "
          "then 3x + 1 (0.008: the sum cancels), broadcast to 31, pad to 32",
          "--target=host --check: relative error 4.5e-2 against f16's 1e-2 "
          "(max abs error 3.6e-4): the program rounds the dot to f16, the "
          "reference keeps it in f32, and the cancellation makes that "
          "rounding a large relative error. A false positive of the check's "
          "tolerance (right numbers for f16), as tile-cancelled-sum-tolerance",
          targets=("host",),
          applies=lambda case: case.dtype == "f16" and contractions(case) >= 1
          and "affine" in case.ops),
    Known("tile-tf32-chain-tolerance",
          "three chained f32 products (32x65 @ 65x64, 8x32 @ that, + bias, "
          "@ 64x128), then each row times its sum",
          "--target=tile-wormhole-n150 (and p150) --check: relative error "
          "4.1e-3 against 2.5e-3, the tolerance of one product of tf32 "
          "inputs; the matrix engine rounds each product's f32 inputs to "
          "tf32, so chained products compound (2.1e-3 after three) and a "
          "sum that cancels doubles it: a false positive of the check's "
          "tolerance, as f16-intermediates-f32-tolerance. Two products and "
          "a row sum that cancels, then x / (1 + sum^2) (seed 99, case 35): "
          "6.2e-2, where a row's sum is small against its absolute error; "
          "two products, then x - row max and x / (1 + y^2) (seed 31337, "
          "case 61): 3.2e-3",
          targets=TILE_TARGETS,
          applies=lambda case: contractions(case) >= 2
          and (case.dtype == "f32" or "xf32>" in case.text)),
    Known("tile-bf16-dot-products-tolerance",
          "seed 505 case 36: linalg.dot of two tensor<128xbf16> into a bf16 "
          "scalar (beside a softmax, a transpose and a convolution)",
          "--target=tile-wormhole-n150 (and p150) --check --seed=1106927442: "
          "relative error 2.3e-2 against bf16's 2e-2 (host: 0): on a grid "
          "of scratchpads strata-row-reductions splits a dot into its "
          "products, an elementwise op in the body's type (bf16, as the "
          "op's body computes them), and their row sum; each product "
          "rounded to bf16 carries 2^-9 of itself into a sum that cancels, "
          "where the host keeps the products in f32 registers",
          targets=TILE_TARGETS,
          applies=lambda case: case.dtype != "f32"
          and any(op.startswith(("dot", "matvec", "vecmat")) for op in case.ops)),
]

AVOIDED = {k.name for k in KNOWN_FAILURES if k.avoid}


def skipped(case, target):
    """The known failure for which `case` is not run on `target`, or None."""
    for k in KNOWN_FAILURES:
        if not k.avoid and target in k.targets and k.applies(case):
            return k
    return None
