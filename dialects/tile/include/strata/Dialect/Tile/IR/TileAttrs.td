//===- TileAttrs.td - Attributes and enums ----------------*- tablegen -*-===//
#ifndef STRATA_DIALECT_TILE_ATTRS
#define STRATA_DIALECT_TILE_ATTRS

include "strata/Dialect/Tile/IR/TileBase.td"
include "mlir/IR/EnumAttr.td"

class Tile_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Tile_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

//===----------------------------------------------------------------------===//
// Enums (printed as bare keywords inside ops)
//===----------------------------------------------------------------------===//

def Tile_KernelKind : I32Enum<"KernelKind", "kind of a kernel", [
    I32EnumCase<"reader", 0>, I32EnumCase<"compute", 1>,
    I32EnumCase<"writer", 2>]> {
  let cppNamespace = "::strata::tile";
}
def Tile_KernelKindAttr : EnumAttr<Tile_Dialect, Tile_KernelKind, "kernel_kind">;

def Tile_TensorRole : I32Enum<"TensorRole", "role of a DRAM tensor", [
    I32EnumCase<"input", 0>, I32EnumCase<"output", 1>,
    I32EnumCase<"scratch", 2>]> {
  let cppNamespace = "::strata::tile";
}
def Tile_TensorRoleAttr : EnumAttr<Tile_Dialect, Tile_TensorRole, "tensor_role">;

def Tile_ShardStrategy : I32Enum<"ShardStrategy", "how a tensor is sharded", [
    I32EnumCase<"height", 0>, I32EnumCase<"width", 1>,
    I32EnumCase<"block", 2>]> {
  let cppNamespace = "::strata::tile";
}
def Tile_ShardStrategyAttr
    : EnumAttr<Tile_Dialect, Tile_ShardStrategy, "shard_strategy">;

def Tile_BinaryKind : I32Enum<"BinaryKind", "elementwise binary operation", [
    I32EnumCase<"add", 0>, I32EnumCase<"sub", 1>, I32EnumCase<"mul", 2>,
    I32EnumCase<"max", 3>, I32EnumCase<"min", 4>, I32EnumCase<"eq", 5>,
    I32EnumCase<"ne", 6>, I32EnumCase<"lt", 7>, I32EnumCase<"le", 8>,
    I32EnumCase<"gt", 9>, I32EnumCase<"ge", 10>]> {
  let cppNamespace = "::strata::tile";
}
def Tile_BinaryKindAttr : EnumAttr<Tile_Dialect, Tile_BinaryKind, "binary">;

def Tile_UnaryKind : I32Enum<"UnaryKind", "elementwise unary operation", [
    I32EnumCase<"exp", 0>, I32EnumCase<"recip", 1>, I32EnumCase<"gelu", 2>,
    I32EnumCase<"relu", 3>, I32EnumCase<"sqrt", 4>, I32EnumCase<"rsqrt", 5>,
    I32EnumCase<"neg", 6>, I32EnumCase<"abs", 7>, I32EnumCase<"tanh", 8>,
    I32EnumCase<"log", 9>, I32EnumCase<"round_bf16", 10>,
    I32EnumCase<"sin", 11>, I32EnumCase<"cos", 12>, I32EnumCase<"erf", 13>]> {
  let cppNamespace = "::strata::tile";
}
def Tile_UnaryKindAttr : EnumAttr<Tile_Dialect, Tile_UnaryKind, "unary">;

def Tile_ScalarKind : I32Enum<"ScalarKind",
    "elementwise operation with a scalar operand", [
    I32EnumCase<"add", 0>, I32EnumCase<"sub", 1>, I32EnumCase<"rsub", 2>,
    I32EnumCase<"mul", 3>, I32EnumCase<"max", 4>, I32EnumCase<"min", 5>,
    I32EnumCase<"eq", 6>, I32EnumCase<"ne", 7>, I32EnumCase<"lt", 8>,
    I32EnumCase<"le", 9>, I32EnumCase<"gt", 10>, I32EnumCase<"ge", 11>,
    I32EnumCase<"fill", 12>]> {
  let cppNamespace = "::strata::tile";
}
def Tile_ScalarKindAttr : EnumAttr<Tile_Dialect, Tile_ScalarKind, "scalar">;

def Tile_ReduceKind : I32Enum<"ReduceKind", "reduction operation", [
    I32EnumCase<"sum", 0>, I32EnumCase<"max", 1>]> {
  let cppNamespace = "::strata::tile";
}
def Tile_ReduceKindAttr : EnumAttr<Tile_Dialect, Tile_ReduceKind, "reduce">;

def Tile_ReduceDim : I32Enum<"ReduceDim", "what a reduction reduces", [
    I32EnumCase<"row", 0>, I32EnumCase<"col", 1>]> {
  let cppNamespace = "::strata::tile";
}
def Tile_ReduceDimAttr : EnumAttr<Tile_Dialect, Tile_ReduceDim, "reduce_dim">;

def Tile_Broadcast : I32Enum<"Broadcast", "how the second operand is broadcast", [
    I32EnumCase<"none", 0>, I32EnumCase<"col", 1>, I32EnumCase<"row", 2>,
    I32EnumCase<"scalar", 3>]> {
  let cppNamespace = "::strata::tile";
}
def Tile_BroadcastAttr : EnumAttr<Tile_Dialect, Tile_Broadcast, "broadcast">;

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

def Tile_CoreRangeAttr : Tile_Attr<"CoreRange", "cores"> {
  let summary = "An inclusive rectangle of cores [row, col]-[row, col]";
  let description = [{
    `#tile.cores<[0, 0]-[7, 7]>` is the 8x8 rectangle from row 0, column 0
    to row 7, column 7 of the compute grid (logical coordinates). Ops print
    it without the prefix: `cores [0, 0]-[7, 7]`.
  }];
  let parameters = (ins "int64_t":$row0, "int64_t":$col0,
                        "int64_t":$row1, "int64_t":$col1);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool contains(int64_t row, int64_t col) const {
      return row >= getRow0() && row <= getRow1() && col >= getCol0() &&
             col <= getCol1();
    }
    bool contains(CoreRangeAttr other) const {
      return contains(other.getRow0(), other.getCol0()) &&
             contains(other.getRow1(), other.getCol1());
    }
    int64_t getNumCores() const {
      return (getRow1() - getRow0() + 1) * (getCol1() - getCol0() + 1);
    }
  }];
}

def Tile_InterleavedAttr : Tile_Attr<"Interleaved", "interleaved"> {
  let summary = "Pages round-robin over the DRAM banks";
  let description = [{
    Page p of the tensor is in bank p mod B (B = the description's DRAM
    banks), at the tensor's base in that bank plus (p div B) pages.
  }];
}

def Tile_ShardedAttr : Tile_Attr<"Sharded", "sharded"> {
  let summary = "Shards of the tensor, one bank each, round-robin";
  let description = [{
    `#tile.sharded<height, shard = [128, 1024]>` cuts the tensor into shards
    of 128x1024 elements (whole tiles), numbered row-major over the shard
    grid; shard s is in bank s mod B, at the tensor's base in that bank plus
    (s div B) shards; inside a shard the tiles are row-major. `height`
    shards span all columns, `width` shards all rows, `block` shards neither.
  }];
  let parameters = (ins EnumParameter<Tile_ShardStrategy>:$strategy,
                        ArrayRefParameter<"int64_t">:$shard);
  let assemblyFormat = "`<` $strategy `,` `shard` `=` `[` $shard `]` `>`";
}

#endif // STRATA_DIALECT_TILE_ATTRS
