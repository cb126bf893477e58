//===- TileProgramOps.td - Programs and their declarations -*- tablegen -*-===//
#ifndef STRATA_DIALECT_TILE_PROGRAM_OPS
#define STRATA_DIALECT_TILE_PROGRAM_OPS

include "strata/Dialect/Tile/IR/TileAttrs.td"
include "strata/Dialect/Tile/IR/TileTypes.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Tile_ProgramOp : Tile_Op<"program", [Symbol, SymbolTable,
    IsolatedFromAbove, NoTerminator, SingleBlock]> {
  let summary = "A program for the core grid: declarations and kernels";
  let description = [{
    The body declares DRAM tensors (`tile.dram_tensor`), circular buffers
    (`tile.circular_buffer`) and semaphores (`tile.semaphore`), then holds
    the kernels (`tile.kernel`). Kernels refer to declarations by symbol.

    The verifier checks every use against its declaration (buffer capacity,
    tile shapes, which cores a buffer exists on) and, when the module carries
    a `#strata.hw` description, the program against the chip: core ranges
    inside the grid, the chip's tile shape, at most the chip's number of
    circular buffers per core, the L1 capacity of every core (reported with
    the size of every buffer on the core that overflows), accumulator
    indices within Dst and fidelities of the matrix engine.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasRegionVerifier = 1;
}

def Tile_DramTensorOp : Tile_Op<"dram_tensor", [Symbol,
    HasParent<"ProgramOp">]> {
  let summary = "Declares a tensor in DRAM";
  let description = [{
    `tile.dram_tensor @a input : !tile.dram<1024x1024xbf16, #tile.interleaved>`.
    Inputs are written by the host before the program runs, outputs read
    after it; scratch tensors are only used by the program.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, Tile_TensorRoleAttr:$role,
                       TypeAttrOf<Tile_DramTensorType>:$type);
  let assemblyFormat = "$sym_name `` $role attr-dict `:` $type";
  let extraClassDeclaration = [{
    DramTensorType getTensorType() { return ::mlir::cast<DramTensorType>(getType()); }
  }];
}

def Tile_CircularBufferOp : Tile_Op<"circular_buffer", [Symbol,
    HasParent<"ProgramOp">]> {
  let summary = "Declares a circular buffer in the L1 of a rectangle of cores";
  let description = [{
    `tile.circular_buffer @in0 cores [0, 0]-[7, 7] : !tile.cb<2x!tile.tile<32x32xbf16>>`
    allocates one buffer of 2 tiles in the L1 of each of the 64 cores.
    Every core of a range allocates its buffers in declaration order, so a
    buffer has the same L1 address on every core that has it.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, Tile_CoreRangeAttr:$cores,
                       TypeAttrOf<Tile_CircularBufferType>:$type);
  let assemblyFormat =
      "$sym_name `cores` custom<CoreRange>($cores) attr-dict `:` $type";
  let extraClassDeclaration = [{
    CircularBufferType getBufferType() {
      return ::mlir::cast<CircularBufferType>(getType());
    }
  }];
}

def Tile_SemaphoreOp : Tile_Op<"semaphore", [Symbol, HasParent<"ProgramOp">]> {
  let summary = "Declares a semaphore word in the L1 of a rectangle of cores";
  let description = [{
    `tile.semaphore @ready cores [0, 0]-[7, 7] init 0`: each core of the
    range has its own counter, starting at `init`, waited on locally and
    incremented or set by other cores over the NoC.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, Tile_CoreRangeAttr:$cores,
                       I64Attr:$init);
  let assemblyFormat =
      "$sym_name `cores` custom<CoreRange>($cores) `init` $init attr-dict";
}

def Tile_KernelOp : Tile_Op<"kernel", [HasParent<"ProgramOp">, NoTerminator,
    SingleBlock, RecursiveMemoryEffects]> {
  let summary = "A kernel run by every core of a rectangle";
  let description = [{
    `tile.kernel reader cores [0, 0]-[7, 7] { ... }` runs its body once on
    each core of the range, on that core's processor for its kind: `reader`
    and `writer` on the two data-movement processors (NoC ops), `compute` on
    the compute processors (unpack, math, pack). The body uses `scf`,
    `arith` and `index` for loops and index math; `tile.core_row` and
    `tile.core_col` give the core's coordinates.

    A compute kernel may set `dst_type` (f32 or bf16: the format of the
    accumulator, f32 by default) and `fidelity` (the matrix engine's
    fidelity, one of the chip's; `HiFi4` by default).
  }];
  let arguments = (ins Tile_KernelKindAttr:$kind, Tile_CoreRangeAttr:$cores,
                       OptionalAttr<TypeAttr>:$dst_type,
                       OptionalAttr<StrAttr>:$fidelity);
  let regions = (region AnyRegion:$body);
  let assemblyFormat =
      "`` $kind `cores` custom<CoreRange>($cores) attr-dict-with-keyword $body";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The accumulator's element type (f32 unless dst_type says bf16).
    ::mlir::Type getDstElementType();
    /// The matrix engine's fidelity (HiFi4 unless given).
    ::llvm::StringRef getFidelityName();
  }];
}

#endif // STRATA_DIALECT_TILE_PROGRAM_OPS
