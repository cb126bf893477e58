"""Random valid programs for the differential test: from a seed, one public
function @case of 1 to 6 ops (matmul, batch matmul, 2-D convolutions,
pooling, reductions, softmax, elementwise, transposes, broadcasts, pads,
slices and reshapes) chained into one dataflow graph, returning one or two
results.

  python3 generator.py SEED [INDEX] [--include-known-failures]

prints the program of case INDEX of run SEED, as differential.py runs it.
Without --include-known-failures it steers around the bugs listed in
known_failures.py. Python 3 standard library only, so that it runs without
the project's virtual environment."""
import argparse
import itertools
import math
import random

from program import NEG_INF, Program, Value, affine_map, dims, identity_map
from program import num_elements
from known_failures import AVOIDED

# Sizes: unit dims, primes, powers of two and one past them (the remainders
# of vector widths, register tiles and 32x32 tile-target tiles).
SMALL = [1, 2, 3, 4, 5, 7, 8]
MEDIUM = [13, 16, 17, 31, 32, 33]
LARGE = [61, 64, 65, 127, 128, 129]
HUGE = [257]

# Per tensor: a case must compile and run in about a second on every target
# (the tile target's emulator and the reference's naive loops included).
MAX_ELEMENTS = 1 << 16
MAX_MACS = 1 << 22

# Magnitude past which a value is rescaled (x * 2^-k) before more ops: f16
# overflows at 65504, exp at 88 (f32); past it both sides are inf or NaN
# and the comparison says nothing.
MAG_LIMIT = {"f32": 1e4, "f16": 64.0, "bf16": 64.0}
# Largest input magnitude of exp: its relative error is |x| times the
# input's, and the low-precision types round the input to 2^-9 .. 2^-11.
EXP_LIMIT = {"f32": 30.0, "f16": 4.0, "bf16": 4.0}


def pick_dim(rng, large=True):
    pools = [(SMALL, 4), (MEDIUM, 4)]
    if large:
        pools += [(LARGE, 3), (HUGE, 1)]
    pool = rng.choices([p for p, _ in pools], [w for _, w in pools])[0]
    return rng.choice(pool)


def shrink(rng, shape, limit=MAX_ELEMENTS):
    """Halves the largest dims (to a smaller listed size) until the shape
    holds at most `limit` elements."""
    shape = list(shape)
    while num_elements(shape) > limit:
        i = max(range(len(shape)), key=lambda j: shape[j])
        smaller = [d for d in SMALL + MEDIUM + LARGE if d <= shape[i] // 2]
        shape[i] = rng.choice(smaller[-3:]) if smaller else 1
    return shape


def fmt(x):
    """A float literal MLIR parses in every float type."""
    return repr(float(x)) if "e" not in repr(float(x)) else f"{x:.6e}"


class Generator:
    def __init__(self, rng, include_known=False):
        self.rng = rng
        self.include_known = include_known
        # Known failures the generator steers around (known_failures.py).
        self.avoid = set() if include_known else set(AVOIDED)
        self.reduced = []  # the inputs of reductions, one entry per reduction
        self.p = Program()
        # The tile chips lower a few function shapes only (docs/tile-target.md:
        # a matmul or convolution with an elementwise epilogue, elementwise
        # ops on 2-D tensors, row reductions and softmax over whole tiles of
        # columns, transposes of whole square tiles) and refuse the rest with
        # a diagnostic: a share of the cases keeps to those shapes so that
        # the tile targets run more than a handful.
        self.tile = rng.random() < 0.4
        # Tile-shaped cases read values more than once like the others
        # (a value two ops read, or an op and the return).
        self.no_sharing = False
        r = rng.random()
        if self.tile:
            self.dtype = "f32" if r < 0.7 else "bf16"
        else:
            # Mostly f32; f16 and bf16 where the targets take them.
            self.dtype = "f32" if r < 0.76 else ("f16" if r < 0.88 else "bf16")

    # ------------------------------------------------------------ inputs
    def new_shape(self, rank, large=True):
        if self.tile and rank == 2 and self.rng.random() < 0.8:
            # One [rows, columns] shape for most tensors: a tile program
            # covers ops over one 2-D shape.
            if not hasattr(self, "base"):
                self.base = shrink(self.rng, [pick_dim(self.rng, large), self.tile_dim()])
            return list(self.base)
        shape = [pick_dim(self.rng, large) for _ in range(rank)]
        if self.tile and rank > 0:
            shape[-1] = self.tile_dim()
        return shrink(self.rng, shape)

    def tile_dim(self):
        """Mostly whole 32x32 tiles (what the tile chips' row programs
        need), now and then any size."""
        if self.rng.random() < 0.75:
            return self.rng.choice([32, 64, 96, 128, 160, 256])
        return pick_dim(self.rng)

    def pick_input(self, ranks, dtype=None):
        """Mostly the newest value not yet read by an op (so that the ops
        chain into one graph), reshaped to an accepted rank where it has
        none; now and then an earlier value or a fresh argument."""
        values = [v for v in self.p.values if dtype is None or v.dtype == dtype]
        live = [v for v in values if not v.used]
        r = self.rng.random()
        x = None
        # A fresh argument only where no value waits to be read: a value
        # left unread is dead code or one more result.
        if values and (live or r < 0.6) and not (self.no_sharing and not live):
            pool = live if live and (r < 0.85 or self.no_sharing) else values
            ok = [v for v in pool if v.rank in ranks]
            if ok:
                x = ok[-1] if pool is live else self.rng.choice(ok)
            elif pool[-1].rank > 0 and not self.tile:
                target = min(ranks, key=lambda k: (abs(k - pool[-1].rank), k))
                x = self.as_rank(pool[-1], target) if target > 0 else None
        if x is None:
            # Tile-shaped: fresh arguments are 2-D (a 4-D value only ever
            # comes from a convolution, for its epilogue).
            rank = ranks[0] if self.tile else self.rng.choice(ranks)
            x = self.p.arg(self.new_shape(rank), dtype or self.dtype)
        x.used = True
        return x

    def result(self, name, shape, dtype, mag, op, nonneg=False):
        v = Value(name, shape, dtype, mag)
        v.nonneg = nonneg
        return self.p.add(v, op)

    def rescale(self, x):
        """x * 2^-k, back under the type's magnitude limit."""
        k = max(1, math.ceil(math.log2(x.mag / (MAG_LIMIT[x.dtype] / 16))))
        x.used = True
        c = 2.0 ** -k
        name = self.p.generic(
            [x], [identity_map(x.rank)] * 2, x.shape, x.dtype,
            ["parallel"] * x.rank,
            lambda a, o: ([f"%s = arith.constant {fmt(c)} : {x.dtype}",
                           f"%r = arith.mulf {a[0]}, %s : {x.dtype}"], "%r"))
        return self.result(name, x.shape, x.dtype, x.mag * c, "rescale",
                           x.nonneg)

    def bounded(self, x):
        return self.rescale(x) if x.mag > MAG_LIMIT[x.dtype] else x

    # ------------------------------------------------- shape adaptations
    def as_rank(self, x, rank):
        """x reshaped to `rank` (collapsing leading dims or adding unit
        dims), or None where that is not a reshape."""
        if x.rank == rank or x.rank == 0:
            return x if x.rank == rank else None
        if x.rank > rank:
            keep = rank - 1
            groups = [list(range(x.rank - keep))] + [
                [x.rank - keep + i] for i in range(keep)]
            shape = [num_elements(x.shape[:x.rank - keep])] + x.shape[x.rank - keep:]
            name = self.p.collapse(x, groups, shape)
        else:
            extra = rank - x.rank
            # The unit dims lead or trail: [n] -> [1, n] or [n, 1].
            if self.rng.random() < 0.5:
                groups = [list(range(extra + 1))] + [[extra + 1 + i] for i in range(x.rank - 1)]
                shape = [1] * extra + x.shape
            else:
                groups = [[i] for i in range(x.rank - 1)] + [list(range(x.rank - 1, rank))]
                shape = x.shape + [1] * extra
            name = self.p.expand(x, groups, shape)
        x.used = True
        return self.result(name, shape, x.dtype, x.mag, "reshape",
                           x.nonneg)

    def input_of_rank(self, rank, dtype=None):
        x = self.pick_input([rank], dtype)
        if num_elements(x.shape) > MAX_ELEMENTS:
            return self.p.arg(self.new_shape(rank), dtype or self.dtype)
        return x

    # ------------------------------------------------------ elementwise
    UNARY = ["exp", "tanh", "neg", "abs", "relu", "sigmoid", "gelu_tanh",
             "gelu_erf", "square", "affine", "sqrt_abs", "rsqrt", "clamp",
             "log1p_abs", "recip", "sin", "erf"]
    # Unary kinds that upstream names as linalg ops.
    NAMED_UNARY = {"exp": "exp", "tanh": "tanh", "neg": "negf", "abs": "abs",
                   "square": "square"}

    def unary_body(self, kind, t, x):
        """(lines, result, magnitude of f(x) given |x| <= x.mag, nonneg)."""
        m = x.mag
        if kind == "exp":
            return ([f"%r = math.exp {{a}} : {t}"], math.exp(m), True)
        if kind == "tanh":
            return ([f"%r = math.tanh {{a}} : {t}"], min(1.0, m), False)
        if kind == "neg":
            return ([f"%r = arith.negf {{a}} : {t}"], m, False)
        if kind == "abs":
            return ([f"%r = math.absf {{a}} : {t}"], m, True)
        if kind == "relu":
            return ([f"%z = arith.constant 0.0 : {t}",
                     f"%r = arith.maximumf {{a}}, %z : {t}"], m, True)
        if kind == "sigmoid":
            return ([f"%one = arith.constant 1.0 : {t}",
                     f"%n = arith.negf {{a}} : {t}",
                     f"%x = math.exp %n : {t}",
                     f"%d = arith.addf %one, %x : {t}",
                     f"%r = arith.divf %one, %d : {t}"], 1.0, True)
        if kind == "gelu_tanh":
            return ([f"%h = arith.constant 0.5 : {t}",
                     f"%one = arith.constant 1.0 : {t}",
                     f"%k = arith.constant 0.7978846 : {t}",
                     f"%c = arith.constant 0.044715 : {t}",
                     f"%x2 = arith.mulf {{a}}, {{a}} : {t}",
                     f"%x3 = arith.mulf %x2, {{a}} : {t}",
                     f"%cx3 = arith.mulf %c, %x3 : {t}",
                     f"%in = arith.addf {{a}}, %cx3 : {t}",
                     f"%s = arith.mulf %k, %in : {t}",
                     f"%th = math.tanh %s : {t}",
                     f"%p = arith.addf %one, %th : {t}",
                     f"%hx = arith.mulf %h, {{a}} : {t}",
                     f"%r = arith.mulf %hx, %p : {t}"], m, False)
        if kind == "gelu_erf":
            return ([f"%h = arith.constant 0.5 : {t}",
                     f"%one = arith.constant 1.0 : {t}",
                     f"%k = arith.constant 0.70710678 : {t}",
                     f"%s = arith.mulf {{a}}, %k : {t}",
                     f"%e = math.erf %s : {t}",
                     f"%p = arith.addf %one, %e : {t}",
                     f"%hx = arith.mulf %h, {{a}} : {t}",
                     f"%r = arith.mulf %hx, %p : {t}"], m, False)
        if kind == "square":
            return ([f"%r = arith.mulf {{a}}, {{a}} : {t}"], m * m, True)
        if kind == "affine":
            a = self.rng.choice([0.5, 2.0, -1.5, 0.125, 3.0])
            b = self.rng.choice([0.0, 1.0, -0.25, 2.5])
            return ([f"%s = arith.constant {fmt(a)} : {t}",
                     f"%b = arith.constant {fmt(b)} : {t}",
                     f"%m = arith.mulf {{a}}, %s : {t}",
                     f"%r = arith.addf %m, %b : {t}"], m * abs(a) + abs(b), False)
        if kind == "sqrt_abs":
            return ([f"%x = math.absf {{a}} : {t}",
                     f"%r = math.sqrt %x : {t}"], math.sqrt(m), True)
        if kind == "rsqrt":
            # rsqrt(1 + x^2): defined everywhere, at most 1.
            return ([f"%one = arith.constant 1.0 : {t}",
                     f"%x2 = arith.mulf {{a}}, {{a}} : {t}",
                     f"%d = arith.addf %one, %x2 : {t}",
                     f"%r = math.rsqrt %d : {t}"], 1.0, True)
        if kind == "clamp":
            return ([f"%lo = arith.constant -0.5 : {t}",
                     f"%hi = arith.constant 0.75 : {t}",
                     f"%x = arith.maximumf {{a}}, %lo : {t}",
                     f"%r = arith.minimumf %x, %hi : {t}"], 0.75, False)
        if kind == "log1p_abs":
            return ([f"%one = arith.constant 1.0 : {t}",
                     f"%x = math.absf {{a}} : {t}",
                     f"%d = arith.addf %one, %x : {t}",
                     f"%r = math.log %d : {t}"], math.log1p(m), True)
        if kind == "recip":
            # x / (1 + |x|): a division whose divisor is never near zero.
            return ([f"%one = arith.constant 1.0 : {t}",
                     f"%x = math.absf {{a}} : {t}",
                     f"%d = arith.addf %one, %x : {t}",
                     f"%r = arith.divf {{a}}, %d : {t}"], 1.0, False)
        if kind == "sin":
            return ([f"%r = math.sin {{a}} : {t}"], min(1.0, m), False)
        if kind == "erf":
            return ([f"%r = math.erf {{a}} : {t}"], min(1.0, m), False)
        raise ValueError(kind)

    def op_unary(self):
        x = self.pick_input([2, 4] if self.tile else [0, 1, 2, 3, 4])
        kinds = list(self.UNARY)
        if x.mag > EXP_LIMIT[x.dtype] and "exp" in kinds:
            kinds.remove("exp")
        if x.mag > 8 and x.dtype != "f32":
            kinds = [k for k in kinds if k not in ("square", "gelu_tanh")]
        kind = self.rng.choice(kinds)
        lines, mag, nonneg = self.unary_body(kind, x.dtype, x)
        if kind in self.NAMED_UNARY and x.rank > 0 and self.rng.random() < 0.3:
            name = self.p.named(self.NAMED_UNARY[kind], [x], x.shape, x.dtype)
        else:
            name = self.p.generic(
                [x], [identity_map(x.rank)] * 2, x.shape, x.dtype,
                ["parallel"] * x.rank,
                lambda a, o: ([l.replace("{a}", a[0]) for l in lines], "%r"))
        return self.result(name, x.shape, x.dtype, mag, kind, nonneg)

    BINARY = {"add": "arith.addf", "sub": "arith.subf", "mul": "arith.mulf",
              "max": "arith.maximumf", "min": "arith.minimumf", "div": None}
    NAMED_BINARY = {"add": "add", "sub": "sub", "mul": "mul", "max": "max",
                    "min": "min"}

    def broadcastable(self, x):
        """Values x can read broadcast: (value, the dims of x it spans),
        e.g. a row's maximum [m] against [m, n] (a softmax's shape)."""
        found = []
        for v in self.p.values:
            if v is x or v.dtype != x.dtype or v.rank >= x.rank:
                continue
            if self.no_sharing and v.used:
                continue
            for keep in itertools.combinations(range(x.rank), v.rank):
                if [x.shape[i] for i in keep] == v.shape:
                    found.append((v, list(keep)))
                    break
        return found

    def op_binary(self, x=None, span=None):
        """x op y, y of x's shape, broadcast (an argument or a value such as
        a row's reduction: `span`, forced) or a constant."""
        x = x or self.pick_input([2, 4] if self.tile else [1, 2, 3, 4])
        kind = self.rng.choice(list(self.BINARY))
        t, rank = x.dtype, x.rank
        same = [v for v in self.p.values + self.p.args
                if v.shape == x.shape and v.dtype == t
                and (v is x or not (self.no_sharing and v.used))]
        spans = [span] if span else self.broadcastable(x)
        form = "value" if span else self.rng.choices(
            ["same", "arg", "bcast", "value", "column", "const"],
            [3 if same else 0, 2, 3, 3 if spans else 0, 1, 1])[0]
        lhs_map = identity_map(rank)
        if form == "same":
            y, y_map = self.rng.choice(same), identity_map(rank)
        elif form == "value":
            y, keep = self.rng.choice(spans)
            y_map = affine_map(rank, [f"d{i}" for i in keep])
        elif form == "arg":
            y, y_map = self.p.arg(x.shape, t), identity_map(rank)
        elif form == "bcast":
            # Broadcast along the dims left out (maybe all: a 0-D tensor;
            # the tile chips broadcast rows and columns only).
            low = 1 if self.tile else 0
            keep = sorted(self.rng.sample(range(rank), self.rng.randint(low, rank - 1)))
            y = self.p.arg([x.shape[i] for i in keep], t)
            y_map = affine_map(rank, [f"d{i}" for i in keep])
        elif form == "column":
            # A [.., n, 1] operand read at (.., i, 0): unit dims by map.
            y = self.p.arg(x.shape[:-1] + [1], t)
            y_map = affine_map(rank, dims(rank)[:-1] + ["0"])
        else:
            y = None
        if y is not None:
            y.used = True
        mag_y = y.mag if y is not None else 1.5
        op = self.BINARY[kind]

        def body(a, o):
            rhs = a[1] if y is not None else "%k"
            lines = [] if y is not None else [
                f"%k = arith.constant {fmt(self.rng.choice([1.5, -0.75, 0.25]))} : {t}"]
            if kind == "div":
                # x / (1 + y^2): never a division by (almost) zero.
                lines += [f"%one = arith.constant 1.0 : {t}",
                          f"%y2 = arith.mulf {rhs}, {rhs} : {t}",
                          f"%d = arith.addf %one, %y2 : {t}",
                          f"%r = arith.divf {a[0]}, %d : {t}"]
            else:
                lines.append(f"%r = {op} {a[0]}, {rhs} : {t}")
            return lines, "%r"

        if form in ("same", "arg") and kind in self.NAMED_BINARY and self.rng.random() < 0.3:
            name = self.p.named(self.NAMED_BINARY[kind], [x, y], x.shape, t)
        else:
            ins = [x] if y is None else [x, y]
            maps = [lhs_map] + ([] if y is None else [y_map]) + [identity_map(rank)]
            name = self.p.generic(ins, maps, x.shape, t, ["parallel"] * rank, body)
        mag = {"add": x.mag + mag_y, "sub": x.mag + mag_y, "mul": x.mag * mag_y,
               "max": max(x.mag, mag_y), "min": max(x.mag, mag_y),
               "div": x.mag}[kind]
        return self.result(name, x.shape, t, mag, kind)

    # ---------------------------------------------------- contractions
    def acc_type(self, t, *operands):
        # f16/bf16 products accumulate in their own type or into f32.
        if t == "f32" or self.rng.random() < 0.5:
            return t
        return "f32"

    def contraction_mag(self, a, b, k):
        both_pos = a.nonneg and b.nonneg
        return a.mag * b.mag * (k if both_pos else 3 * math.sqrt(k))

    def op_matmul(self):
        x = self.input_of_rank(2)
        t = x.dtype
        style = self.rng.choices(["named", "maps", "generic"],
                                 [8, 1, 1] if self.tile else [6, 2, 2])[0]
        if self.rng.random() < 0.75:
            m, k = x.shape
            # A square weight now and then: the result can meet x again.
            n = k if self.rng.random() < 0.3 else self.out_dim()
            # "maps": the same product with B read transposed (given [n, k]).
            a, b = x, self.p.arg([n, k] if style == "maps" else [k, n], t)
        else:
            k, n = x.shape
            m = pick_dim(self.rng)
            a, b = self.p.arg([m, k], t), x
            style = "named" if style == "maps" else style
        if m * n > MAX_ELEMENTS or m * n * k > MAX_MACS:
            return None
        out_t = self.acc_type(t, a, b)
        init = self.p.filled([m, n], out_t, "0.0")
        if style == "named":
            name = self.p.named("matmul", [a, b], [m, n], out_t, init=init)
        elif style == "maps":
            maps = ("indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, "
                    "affine_map<(d0, d1, d2) -> (d1, d2)>, "
                    "affine_map<(d0, d1, d2) -> (d0, d1)>]")
            name = self.p.named("matmul", [a, b], [m, n], out_t, init=init,
                                attrs=maps)
        else:
            name = self.p.generic(
                [a, b], [affine_map(3, ["d0", "d2"]), affine_map(3, ["d2", "d1"]),
                         affine_map(3, ["d0", "d1"])],
                [m, n], out_t, ["parallel", "parallel", "reduction"],
                lambda v, o: self.mac_body(v, o, t, out_t), init=init)
        op = {"named": "matmul", "maps": "matmul_bt", "generic": "matmul_generic"}[style]
        return self.result(name, [m, n], out_t, self.contraction_mag(a, b, k), op)

    def out_dim(self):
        return self.tile_dim() if self.tile else pick_dim(self.rng)

    def op_vector_product(self):
        """linalg.dot, matvec or vecmat: a contraction with no matrix on one
        side (the host vectorizes a dot's scalar result as a reduction; the
        tile chips split each into products and a row sum)."""
        style = self.rng.choice(["dot", "matvec", "vecmat"])
        x = self.input_of_rank(2 if style == "matvec" else 1)
        t = x.dtype
        if style == "matvec":
            m, k = x.shape
            a, b, out = x, self.p.arg([k], t), [m]
        elif style == "vecmat":
            (k,) = x.shape
            n = self.out_dim()
            a, b, out = x, self.p.arg([k, n], t), [n]
        else:
            (k,) = x.shape
            a, b, out = x, self.p.arg([k], t), []
        if k * math.prod(out) > MAX_MACS:
            return None
        out_t = self.acc_type(t, a, b)
        init = self.p.filled(out, out_t, "0.0")
        name = self.p.named(style, [a, b], out, out_t, init=init)
        return self.result(name, out, out_t, self.contraction_mag(a, b, k),
                           style)

    def mac_body(self, v, o, t, out_t):
        lines = []
        a, b = v
        if out_t != t:
            lines += [f"%ea = arith.extf {a} : {t} to {out_t}",
                      f"%eb = arith.extf {b} : {t} to {out_t}"]
            a, b = "%ea", "%eb"
        lines += [f"%p = arith.mulf {a}, {b} : {out_t}",
                  f"%r = arith.addf {o}, %p : {out_t}"]
        return lines, "%r"

    def op_batch_matmul(self):
        x = self.input_of_rank(3)
        t = x.dtype
        if self.rng.random() < 0.75:
            bsz, m, k = x.shape
            n = k if self.rng.random() < 0.3 else self.out_dim()
            a, b = x, self.p.arg([bsz, k, n], t)
        else:
            bsz, k, n = x.shape
            m = pick_dim(self.rng)
            a, b = self.p.arg([bsz, m, k], t), x
        if bsz * m * n > MAX_ELEMENTS or bsz * m * n * k > MAX_MACS:
            return None
        out_t = self.acc_type(t, a, b)
        named = self.rng.random() < 0.7
        init = self.p.filled([bsz, m, n], out_t, "0.0")
        if named:
            name = self.p.named("batch_matmul", [a, b], [bsz, m, n], out_t, init=init)
            op = "batch_matmul"
        else:
            name = self.p.generic(
                [a, b], [affine_map(4, ["d0", "d1", "d3"]), affine_map(4, ["d0", "d3", "d2"]),
                         affine_map(4, ["d0", "d1", "d2"])],
                [bsz, m, n], out_t, ["parallel"] * 3 + ["reduction"],
                lambda v, o: self.mac_body(v, o, t, out_t), init=init)
            op = "batch_matmul_generic"
        return self.result(name, [bsz, m, n], out_t, self.contraction_mag(a, b, k), op)

    # ----------------------------------------------------- convolutions
    def conv_input(self, nchw):
        """A 4-D input: the newest value, viewed as an image where it is 2-D
        or 3-D ([m, n] as [1, a, m / a, n] or [1, m, n, 1] in NHWC), or a
        fresh argument of small spatial size."""
        live = [v for v in self.p.values if not v.used and v.rank in (2, 3, 4)
                and num_elements(v.shape) <= MAX_ELEMENTS // 2
                and (not self.tile or v.rank == 4)]
        if live and self.rng.random() < 0.85:
            x = live[-1]
            if x.rank == 4:
                x.used = True
                return x
            lead = [1] if x.rank == 2 else [x.shape[0]]
            m, n = x.shape[-2:]
            if self.rng.random() < 0.5:
                a = self.rng.choice([f for f in range(1, m + 1) if m % f == 0])
                image = [a, m // a, n]  # pixels of m, channels n
            else:
                image = [m, n, 1]  # one channel
            shape = lead + ([image[2], image[0], image[1]] if nchw else image)
            if nchw:
                # NCHW from the same data: [.., m, n] as [1, 1, m, n] or
                # [1, m, a, n / a] (channels m).
                shape = lead + ([1, m, n] if image[2] == 1 else
                                [m] + self.factor(n))
            y = self.view(x, shape)
            if y is not None:
                return y
        n = self.rng.choice([1, 1, 2, 3])
        h, w = self.rng.choice(SMALL + MEDIUM), self.rng.choice(SMALL + MEDIUM)
        c = self.rng.choice([1, 2, 3, 4, 8, 13, 16, 32, 33, 64])
        if self.tile:
            # The tile chips gather channels by whole tiles.
            c = self.rng.choice([32, 32, 64, 33])
        shape = shrink(self.rng, [n, c, h, w] if nchw else [n, h, w, c],
                       MAX_ELEMENTS // 4)
        x = self.p.arg(shape, self.dtype)
        x.used = True
        return x

    def factor(self, d):
        a = self.rng.choice([f for f in range(1, d + 1) if d % f == 0])
        return [a, d // a]

    def view(self, x, shape):
        """x reshaped to `shape` by one tensor.expand_shape (each source dim
        a run of target dims whose product it is), or None."""
        groups, j = [], 0
        for i, d in enumerate(x.shape):
            if j >= len(shape):
                return None
            group, prod = [j], shape[j]
            j += 1
            while prod < d and j < len(shape):
                group.append(j)
                prod *= shape[j]
                j += 1
            if prod != d:
                return None
            # Unit dims after it join it while the source dims left still
            # have target dims enough.
            while j < len(shape) and shape[j] == 1 and len(shape) - j > x.rank - i - 1:
                group.append(j)
                j += 1
            groups.append(group)
        if j != len(shape):
            return None
        name = self.p.expand(x, groups, shape)
        x.used = True
        v = self.result(name, shape, x.dtype, x.mag, "reshape", x.nonneg)
        v.used = True
        return v

    def op_conv(self):
        kind = self.rng.choices(["nhwc", "nchw", "depthwise", "pool_max", "pool_sum"],
                                [1, 0, 0, 0, 0] if self.tile else [5, 3, 1, 1, 1])[0]
        nchw = kind == "nchw"
        x = self.conv_input(nchw)
        t = x.dtype
        sp = [2, 3] if nchw else [1, 2]  # spatial dims of the input
        kh, kw = self.rng.choice([1, 2, 3]), self.rng.choice([1, 2, 3])
        stride = [self.rng.choice([1, 1, 2]) for _ in range(2)]
        dil = [self.rng.choice([1, 1, 2]) for _ in range(2)]
        pad = self.rng.random() < 0.4
        if pad:
            # Padding through tensor.pad: the spatial dims only, mostly zero.
            low = [0] * 4
            high = [0] * 4
            for d in sp:
                low[d], high[d] = self.rng.randint(0, 2), self.rng.randint(0, 2)
            literal = "0.0" if self.rng.random() < 0.8 or kind == "pool_max" else "0.5"
            if kind == "pool_max":
                literal = NEG_INF[t] if self.rng.random() < 0.5 else "0.0"
            if literal == NEG_INF[t]:
                # Less -inf padding than a window: no window lies wholly in
                # it, so no -inf reaches later ops (x / (1 + |x|) of -inf is
                # NaN on both sides, which the check counts as a mismatch;
                # seed 3782450130, case 37).
                for d, k in zip(sp, (kh, kw)):
                    low[d], high[d] = min(low[d], k - 1), min(high[d], k - 1)
            name, shape = self.p.pad(x, low, high, literal)
            x = self.result(name, shape, t, max(x.mag, 0.5), "pad",
                            x.nonneg)
        h, w = x.shape[sp[0]], x.shape[sp[1]]
        oh = (h - (kh - 1) * dil[0] - 1) // stride[0] + 1
        ow = (w - (kw - 1) * dil[1] - 1) // stride[1] + 1
        if oh < 1 or ow < 1:
            return None
        n = x.shape[0]
        c = x.shape[1] if nchw else x.shape[3]
        attrs = (f"{{dilations = dense<[{dil[0]}, {dil[1]}]> : tensor<2xi64>, "
                 f"strides = dense<[{stride[0]}, {stride[1]}]> : tensor<2xi64>}}")
        if kind in ("nhwc", "nchw"):
            f = self.rng.choice([32, 64, 96] if self.tile else [1, 3, 8, 16, 17, 32, 64])
            if n * oh * ow * f * c * kh * kw > MAX_MACS:
                return None
            out = [n, f, oh, ow] if nchw else [n, oh, ow, f]
            wt = self.p.arg([f, c, kh, kw] if nchw else [kh, kw, c, f], t)
            out_t = self.acc_type(t, x, wt)
            init = self.p.filled(out, out_t, "0.0")
            op = "conv_2d_nchw_fchw" if nchw else "conv_2d_nhwc_hwcf"
            name = self.p.named(op, [x, wt], out, out_t, init=init, attrs=attrs)
            return self.result(name, out, out_t, self.contraction_mag(x, wt, c * kh * kw), op)
        out = [n, oh, ow, c]
        if kind == "depthwise":
            wt = self.p.arg([kh, kw, c], t)
            init = self.p.filled(out, t, "0.0")
            name = self.p.named("depthwise_conv_2d_nhwc_hwc", [x, wt], out, t,
                                init=init, attrs=attrs)
            return self.result(name, out, t, self.contraction_mag(x, wt, kh * kw),
                               "depthwise_conv")
        window = Value(self.p.empty([kh, kw], t), [kh, kw], t, 0)
        init = self.p.filled(out, t, NEG_INF[t] if kind == "pool_max" else "0.0")
        op = "pooling_nhwc_max" if kind == "pool_max" else "pooling_nhwc_sum"
        name = self.p.named(op, [x, window], out, t, init=init, attrs=attrs)
        mag = x.mag * (1 if kind == "pool_max" else kh * kw)
        return self.result(name, out, t, mag, op, x.nonneg)

    # ------------------------------------------------------- reductions
    def op_reduce(self):
        x = self.pick_input([2] if self.tile else [1, 2, 3, 4])
        t, rank = x.dtype, x.rank
        r = self.rng.random()
        if self.tile:
            axes = [rank - 1]  # along the rows
        elif r < 0.7:
            axes = [self.rng.randrange(rank)]
        elif r < 0.85 or rank == 1:
            axes = list(range(rank))  # the whole tensor: a 0-D result
        else:
            axes = sorted(self.rng.sample(range(rank), 2))
        kind = self.rng.choice(["sum", "max"])
        out = [d for i, d in enumerate(x.shape) if i not in axes]
        init = self.p.filled(out, t, "0.0" if kind == "sum" else NEG_INF[t])
        combiner = "arith.addf" if kind == "sum" else "arith.maximumf"
        if self.rng.random() < 0.6:
            name = self.p.reduce(x, axes, out, combiner, init)
        else:
            # The same reduction as a generic with reduction iterators.
            kept = [f"d{i}" for i in range(rank) if i not in axes]
            name = self.p.generic(
                [x], [identity_map(rank), affine_map(rank, kept)],
                out, t, ["reduction" if i in axes else "parallel" for i in range(rank)],
                lambda a, o: ([f"%r = {combiner} {a[0]}, {o} : {t}"], "%r"), init=init)
        count = num_elements([x.shape[i] for i in axes])
        mag = x.mag * (count if x.nonneg else 3 * math.sqrt(count)) \
            if kind == "sum" else x.mag
        self.reduced.append(x.name)
        r = self.result(name, out, t, mag, f"reduce_{kind}", kind == "max" and x.nonneg)
        if self.tile:
            # The tile chips' row programs end with a 2-D result: the rows'
            # values meet the rows again (x - max(x), as in a softmax).
            return self.op_binary(x, (r, [0]))
        return r

    def op_softmax(self):
        x = self.pick_input([2] if self.tile else [1, 2, 3])
        d = x.rank - 1 if self.tile else self.rng.randrange(x.rank)
        name = self.p.named("softmax", [x], x.shape, x.dtype, attrs=f"dimension({d})")
        return self.result(name, x.shape, x.dtype, 1.0, "softmax", True)

    # ---------------------------------------------------- data movement
    def op_transpose(self):
        x = self.pick_input([2] if self.tile else [2, 3, 4])
        perm = list(range(x.rank))
        while perm == list(range(x.rank)):
            self.rng.shuffle(perm)
        out = [x.shape[p] for p in perm]
        if self.rng.random() < 0.7:
            name = self.p.named("transpose", [x], out, x.dtype,
                                suffix=f"permutation = [{', '.join(map(str, perm))}]")
        else:
            # The copy with a permuted input map.
            inv = [perm.index(i) for i in range(x.rank)]
            name = self.p.generic(
                [x], [affine_map(x.rank, [f"d{i}" for i in inv]), identity_map(x.rank)],
                out, x.dtype, ["parallel"] * x.rank, lambda a, o: ([], a[0]))
        return self.result(name, out, x.dtype, x.mag, "transpose",
                           x.nonneg)

    def op_broadcast(self):
        x = self.pick_input([0, 1, 2, 3])
        pos = self.rng.randint(0, x.rank)
        size = pick_dim(self.rng, large=x.rank < 2)
        out = x.shape[:pos] + [size] + x.shape[pos:]
        if num_elements(out) > MAX_ELEMENTS:
            return None
        if self.rng.random() < 0.6:
            name = self.p.named("broadcast", [x], out, x.dtype,
                                suffix=f"dimensions = [{pos}]")
        else:
            name = self.p.generic(
                [x], [affine_map(x.rank + 1, [f"d{i}" for i in range(x.rank + 1) if i != pos]),
                      identity_map(x.rank + 1)],
                out, x.dtype, ["parallel"] * (x.rank + 1), lambda a, o: ([], a[0]))
        return self.result(name, out, x.dtype, x.mag, "broadcast",
                           x.nonneg)

    def op_pad(self):
        x = self.pick_input([1, 2, 3, 4])
        low = [self.rng.choice([0, 0, 1, 2, 3]) for _ in x.shape]
        high = [self.rng.choice([0, 0, 1, 2, 5]) for _ in x.shape]
        if not any(low + high):
            high[-1] = 1
        shape = [d + a + b for d, a, b in zip(x.shape, low, high)]
        if num_elements(shape) > MAX_ELEMENTS:
            return None
        literal = self.rng.choice(["0.0", "0.0", "1.0", "-2.5"])
        name, shape = self.p.pad(x, low, high, literal)
        return self.result(name, shape, x.dtype, max(x.mag, 2.5), "pad")

    def op_slice(self):
        x = self.pick_input([1, 2, 3, 4])
        offsets, sizes, strides, out = [], [], [], []
        for d in x.shape:
            stride = self.rng.choice([1, 1, 1, 2])
            size = self.rng.randint(1, max(1, (d - 1) // stride + 1))
            offset = self.rng.randint(0, d - ((size - 1) * stride + 1))
            offsets.append(offset)
            sizes.append(size)
            strides.append(stride)
            out.append(size)
        # Rank-reducing now and then: a unit dim of the slice dropped.
        units = [i for i, s in enumerate(sizes) if s == 1]
        if units and len(out) > 1 and self.rng.random() < 0.5:
            out.pop(self.rng.choice(units))
        name = self.p.extract_slice(x, offsets, sizes, strides, out)
        return self.result(name, out, x.dtype, x.mag, "extract_slice",
                           x.nonneg)

    def op_collapse(self):
        x = self.pick_input([2, 3, 4])
        i = self.rng.randrange(x.rank - 1)
        groups = [[j] for j in range(i)] + [[i, i + 1]] + [[j] for j in range(i + 2, x.rank)]
        out = x.shape[:i] + [x.shape[i] * x.shape[i + 1]] + x.shape[i + 2:]
        name = self.p.collapse(x, groups, out)
        return self.result(name, out, x.dtype, x.mag, "collapse_shape",
                           x.nonneg)

    def op_expand(self):
        x = self.pick_input([1, 2, 3])
        i = self.rng.randrange(x.rank)
        d = x.shape[i]
        a = self.rng.choice([f for f in range(1, d + 1) if d % f == 0])
        out = x.shape[:i] + [a, d // a] + x.shape[i + 1:]
        groups = [[j] for j in range(i)] + [[i, i + 1]] + [[j + 1] for j in range(i + 1, x.rank)]
        name = self.p.expand(x, groups, out)
        return self.result(name, out, x.dtype, x.mag, "expand_shape",
                           x.nonneg)

    OPS = {"matmul": 3, "batch_matmul": 1.5, "vector_product": 1,
           "conv": 2, "reduce": 2,
           "softmax": 1, "unary": 3, "binary": 3, "transpose": 1.5,
           "broadcast": 1, "pad": 1, "slice": 1, "collapse": 0.7,
           "expand": 0.7}
    TILE_OPS = {"matmul": 4, "batch_matmul": 1, "vector_product": 1,
                "conv": 1.5, "reduce": 2,
                "softmax": 1.5, "unary": 3, "binary": 3.5, "transpose": 1}
    # The ranks each op reads without a reshape: the next op is mostly one
    # that takes the newest unread value as it is.
    RANKS = {"matmul": {2}, "batch_matmul": {3}, "vector_product": {1, 2},
             "conv": {2, 3, 4},
             "reduce": {1, 2, 3, 4}, "softmax": {1, 2, 3},
             "unary": {0, 1, 2, 3, 4}, "binary": {1, 2, 3, 4},
             "transpose": {2, 3, 4}, "broadcast": {0, 1, 2, 3},
             "pad": {1, 2, 3, 4}, "slice": {1, 2, 3, 4},
             "collapse": {2, 3, 4}, "expand": {1, 2, 3}}
    # The tile chips' shapes: 2-D tensors, a convolution's epilogue on its
    # 4-D result.
    TILE_RANKS = {"matmul": {2}, "batch_matmul": {3},
                  "vector_product": {1, 2}, "conv": {4},
                  "reduce": {2}, "softmax": {2}, "unary": {2, 4},
                  "binary": {2, 4}, "transpose": {2}}

    def build(self):
        count = self.rng.randint(1, 6)
        made = 0
        while made < count:
            ops = self.TILE_OPS if self.tile else self.OPS
            ranks = self.TILE_RANKS if self.tile else self.RANKS
            live = [v for v in self.p.values if not v.used]
            if live and self.rng.random() < 0.85:
                fit = {k: w for k, w in ops.items() if live[-1].rank in ranks[k]}
                ops = fit or ops
            kind = self.rng.choices(list(ops), list(ops.values()))[0]
            value = getattr(self, f"op_{kind}")()
            if value is None:
                # The op gave up (sizes): what it picked is unread again.
                for v in self.p.values:
                    v.used = self.p.reads(v.name)
                continue
            made += 1
            self.bounded(value)
        # The newest value; the newest value no op read (a branch of the
        # graph that would be dead code), or now and then one that an op
        # read as well (an intermediate that is also a result).
        values = self.p.values
        results = [values[-1]]
        dead = [v for v in values[:-1] if not self.p.reads(v.name)]
        if dead:
            results.append(dead[-1])
        elif len(values) > 1 and self.rng.random() < 0.25 and not self.no_sharing:
            results.append(self.rng.choice(values[:-1]))
        self.p.results = results
        return self.p


class Case:
    """One generated case: its program and what the driver needs to know
    of it (the known failures' `applies` read dtype and ops)."""

    def __init__(self, seed, index, gen, program):
        self.seed, self.index = seed, index
        self.dtype, self.tile, self.ops = gen.dtype, gen.tile, list(program.ops)
        self.results = len(program.results)
        # Values more than one op (or an op and the return) read, but for
        # a row reduction and the op that meets its result with the rows
        # again (x - max(x): one row program reads x twice).
        self.shared = [v.name for v in program.values + program.args
                       if program.uses(v.name) - gen.reduced.count(v.name) > 1]
        self.summary = (f"{self.dtype}{' tile-shaped' if self.tile else ''}: "
                        + ", ".join(self.ops))
        self.text = program.text(f"// seed {seed}, case {index}: {self.summary}\n")
        # The seed of strata-run's random inputs.
        self.input_seed = gen.rng.getrandbits(31) + 1


def generate(seed, index, include_known=False):
    """Case `index` of run `seed`. Its own seed is derived from both, so that
    one case is reproduced without generating the others."""
    rng = random.Random(f"strata-differential:{seed}:{index}")
    gen = Generator(rng, include_known)
    return Case(seed, index, gen, gen.build())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("seed", type=int)
    parser.add_argument("index", type=int, nargs="?", default=0)
    parser.add_argument("--include-known-failures", action="store_true")
    args = parser.parse_args()
    print(generate(args.seed, args.index, args.include_known_failures).text, end="")


if __name__ == "__main__":
    main()
