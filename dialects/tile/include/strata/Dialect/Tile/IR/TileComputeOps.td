//===- TileComputeOps.td - Dst, matrix and vector engines -*- tablegen -*-===//
//
// Compute kernels work in the accumulator, Dst: a few tiles of f32 (or
// bf16) that the math side acquires, writes (matmul, elementwise, unpack)
// and commits, and the pack side waits for, packs into circular buffers and
// releases. Ops that read a circular buffer name a tile at its front (index
// 0 = the oldest tile waited for); tile.pack_tile names a slot of the
// reserved back. A Dst tile is empty after tile.acquire_dst: accumulating ops
// start from zero (max from -inf).
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_DIALECT_TILE_COMPUTE_OPS
#define STRATA_DIALECT_TILE_COMPUTE_OPS

include "strata/Dialect/Tile/IR/TileAttrs.td"
include "strata/Dialect/Tile/IR/TileTraits.td"

class Tile_ComputeOp<string mnemonic, list<Trait> traits = []>
    : Tile_Op<mnemonic, !listconcat([Tile_InComputeKernel], traits)>;

//===----------------------------------------------------------------------===//
// The accumulator's handshake: acquire -> commit (math), wait -> release
// (pack). With a double-buffered Dst the math side may acquire the other
// half while the pack side still packs.
//===----------------------------------------------------------------------===//

def Tile_AcquireDstOp : Tile_ComputeOp<"acquire_dst"> {
  let summary = "Math side: takes the accumulator (empty) for writing";
  let assemblyFormat = "attr-dict";
}
def Tile_CommitDstOp : Tile_ComputeOp<"commit_dst"> {
  let summary = "Math side: hands the written accumulator to the pack side";
  let assemblyFormat = "attr-dict";
}
def Tile_WaitDstOp : Tile_ComputeOp<"wait_dst"> {
  let summary = "Pack side: waits for the committed accumulator";
  let assemblyFormat = "attr-dict";
}
def Tile_ReleaseDstOp : Tile_ComputeOp<"release_dst"> {
  let summary = "Pack side: gives the packed accumulator back to math";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Math: CB tiles are unpacked to the source registers and combined into Dst.
//===----------------------------------------------------------------------===//

def Tile_MatmulTilesOp : Tile_ComputeOp<"matmul_tiles"> {
  let summary = "Dst[dst] += A x B on the matrix engine";
  let description = [{
    `tile.matmul_tiles @a[%i], @b[%j] -> dst[%d]`: tile `%i` at the front of
    `@a` (m x k) times tile `%j` of `@b` (k x n), accumulated in Dst tile
    `%d`. The operands must have the same element type and agree on k.
    Products of bf16 are exact in f32; the sum is f32 (rounded to bf16
    after each op when the kernel's Dst is bf16). The kernel's fidelity sets
    the engine's passes (time); the emulator computes at full precision.
  }];
  let arguments = (ins FlatSymbolRefAttr:$a, Index:$a_index,
                       FlatSymbolRefAttr:$b, Index:$b_index, Index:$dst);
  let assemblyFormat = [{
    $a `[` $a_index `]` `,` $b `[` $b_index `]` `->` `dst` `[` $dst `]` attr-dict
  }];
}

def Tile_BinaryOp : Tile_ComputeOp<"binary"> {
  let summary = "Dst[dst] = A op B, elementwise";
  let description = [{
    `tile.binary add @a[%i], @b[%j] -> dst[%d]` (add, sub, mul, max) on two
    tiles of the same shape. With `bcast col` the second operand's column 0
    is used for every column (a per-row value, as a row reduction leaves
    it), `bcast row` its row 0 for every row, `bcast scalar` its element
    (0, 0).
  }];
  let arguments = (ins Tile_BinaryKindAttr:$kind, FlatSymbolRefAttr:$a,
                       Index:$a_index, FlatSymbolRefAttr:$b, Index:$b_index,
                       Index:$dst,
                       DefaultValuedAttr<Tile_BroadcastAttr,
                           "::strata::tile::Broadcast::none">:$bcast);
  let assemblyFormat = [{
    `` $kind $a `[` $a_index `]` `,` $b `[` $b_index `]` `->` `dst` `[` $dst `]`
    (`bcast` `` $bcast^)? attr-dict
  }];
}

def Tile_UnpackTileOp : Tile_ComputeOp<"unpack_tile"> {
  let summary = "Dst[dst] = a tile of a circular buffer (unpack, copy)";
  let description = [{
    With `bcast col` the tile's column 0 fills every column of the Dst tile
    (a per-row value, as a row reduction leaves it), `bcast row` its row 0
    every row, `bcast scalar` its element (0, 0) the whole tile: the
    unpacker's broadcast, so that a per-row value can be a Dst operand.
    With `transpose` the Dst tile is the buffer tile's transpose (the
    chip's `transpose_wh_tile`: the unpacker swaps the faces, the vector
    engine transposes inside them); square tiles only, no broadcast.
  }];
  let arguments = (ins FlatSymbolRefAttr:$cb, Index:$index, Index:$dst,
                       DefaultValuedAttr<Tile_BroadcastAttr,
                           "::strata::tile::Broadcast::none">:$bcast,
                       UnitAttr:$transpose);
  let assemblyFormat = [{
    $cb `[` $index `]` `->` `dst` `[` $dst `]` (`bcast` `` $bcast^)?
    (`transpose` $transpose^)? attr-dict
  }];
}

def Tile_ReduceOp : Tile_ComputeOp<"reduce"> {
  let summary = "Accumulates a row or column reduction of a tile into Dst";
  let description = [{
    `tile.reduce max row @x[%i] -> dst[%d]`: `row` reduces each row, the
    results going to column 0 of Dst tile `%d` (`col`: each column, to row
    0); the other elements are zero. Repeated reductions into the same Dst
    tile accumulate (sum) or keep the maximum (max), so a row of tiles is
    reduced by one op per tile.
  }];
  let arguments = (ins Tile_ReduceKindAttr:$kind, Tile_ReduceDimAttr:$dim,
                       FlatSymbolRefAttr:$cb, Index:$index, Index:$dst);
  let assemblyFormat = [{
    `` $kind `` $dim $cb `[` $index `]` `->` `dst` `[` $dst `]` attr-dict
  }];
}

//===----------------------------------------------------------------------===//
// The vector engine: elementwise ops on Dst tiles in place.
//===----------------------------------------------------------------------===//

def Tile_UnaryOp : Tile_ComputeOp<"unary"> {
  let summary = "Dst[dst] = f(Dst[dst]) on the vector engine";
  let description = [{
    exp, recip (1/x), gelu (tanh form), relu, sqrt, rsqrt, neg, abs, tanh,
    log (natural), sin, cos, erf, round_bf16 (to the nearest bf16, ties to even; the value
    stays in Dst's format: a program's own rounding, `arith.truncf` to
    bf16 and back).
  }];
  let arguments = (ins Tile_UnaryKindAttr:$kind, Index:$dst);
  let assemblyFormat = "`` $kind `dst` `[` $dst `]` attr-dict";
}

def Tile_UnaryScalarOp : Tile_ComputeOp<"unary_scalar"> {
  let summary = "Dst[dst] = Dst[dst] op scalar on the vector engine";
  let description = [{
    `tile.unary_scalar mul dst[%d], 5.000000e-01` multiplies every element
    of Dst tile `%d` by the f32 immediate, in place: add, sub (x - s), rsub
    (s - x), mul, max, min; the comparisons eq, ne, lt, le, gt, ge give 1.0
    where `x op s` holds and 0.0 elsewhere (as IEEE compares: only ne holds
    for NaN); fill writes s. The scalar is an operand of the vector
    engine's instruction, not a tile in a buffer.
  }];
  let arguments = (ins Tile_ScalarKindAttr:$kind, Index:$dst, F32Attr:$scalar);
  let assemblyFormat = "`` $kind `dst` `[` $dst `]` `,` $scalar attr-dict";
}

def Tile_BinaryDstOp : Tile_ComputeOp<"binary_dst"> {
  let summary = "Dst[dst] = Dst[lhs] op Dst[rhs] on the vector engine";
  let description = [{
    add, sub, mul, max, min; the comparisons eq, ne, lt, le, gt, ge give
    1.0 where `lhs op rhs` holds and 0.0 elsewhere (IEEE: only ne holds
    for NaN).
  }];
  let arguments = (ins Tile_BinaryKindAttr:$kind, Index:$lhs, Index:$rhs,
                       Index:$dst);
  let assemblyFormat = [{
    `` $kind `dst` `[` $lhs `]` `,` `dst` `[` $rhs `]` `->` `dst` `[` $dst `]`
    attr-dict
  }];
}

def Tile_WhereDstOp : Tile_ComputeOp<"where_dst"> {
  let summary = "Dst[dst] = Dst[cond] != 0 ? Dst[on_true] : Dst[on_false]";
  let description = [{
    `tile.where_dst dst[%c], dst[%t], dst[%f] -> dst[%d]` picks, element by
    element, the value of `%t` where `%c` is not zero (a comparison's 1.0)
    and that of `%f` elsewhere, on the vector engine (its lane predication:
    neither operand's value enters the other's lanes, so a NaN or an
    infinity on the side not taken stays out).
  }];
  let arguments = (ins Index:$cond, Index:$on_true, Index:$on_false,
                       Index:$dst);
  let assemblyFormat = [{
    `dst` `[` $cond `]` `,` `dst` `[` $on_true `]` `,` `dst` `[` $on_false `]`
    `->` `dst` `[` $dst `]` attr-dict
  }];
}

//===----------------------------------------------------------------------===//
// Pack: Dst -> circular buffer.
//===----------------------------------------------------------------------===//

def Tile_PackTileOp : Tile_ComputeOp<"pack_tile"> {
  let summary = "Packs a Dst tile into a reserved slot of a circular buffer";
  let description = [{
    `tile.pack_tile dst[%d] -> @out[%slot]` converts Dst tile `%d` to the
    buffer's element type (round to nearest even for bf16) and face layout
    and writes it to slot `%slot` of the region reserved at the back. Dst
    must have been committed and waited for.
  }];
  let arguments = (ins Index:$dst, FlatSymbolRefAttr:$cb, Index:$slot);
  let assemblyFormat = "`dst` `[` $dst `]` `->` $cb `[` $slot `]` attr-dict";
}

#endif // STRATA_DIALECT_TILE_COMPUTE_OPS
