//===- FunctionLowering.h - One function to one tile program ---*- C++ -*-===//
//
// The shapes of functions strata-tile-lower turns into tile programs
// (MatmulLowering.cpp with convolutions, EltwiseLowering.cpp,
// RowLowering.cpp, AttentionLowering.cpp) and the helpers they share
// (LowerToTile.cpp, ConvPadding.cpp). Each reads the function's mapped
// IR and the ops' schedules, fills a plan (Programs.h) and writes it.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TARGETS_TILE_FUNCTIONLOWERING_H
#define STRATA_TARGETS_TILE_FUNCTIONLOWERING_H

#include "Programs.h"

#include "strata/Dialect/Tile/IR/TileChip.h"
#include "strata/Schedule/Schedule.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

#include <algorithm>
#include <optional>

namespace strata::tile {

/// What lowering needs besides the function: the chip and the fidelity of
/// the compute kernels.
struct LoweringTarget {
  const TileChip &chip;
  const hw::Description &description;
  std::string fidelity; ///< requested (pass option); empty: the chip's
  /// The fidelity of matrix work on `type` operands: the requested one, else
  /// the intrinsic's default_fidelity (HiFi2 without one), and the
  /// intrinsic's most precise when it does not run at that (f32: HiFi4).
  std::string fidelityFor(const std::string &type) const {
    std::string chosen = fidelity;
    auto preset = chip.defaultFidelityByType.find(type);
    if (chosen.empty())
      chosen =
          preset != chip.defaultFidelityByType.end() ? preset->second : "HiFi2";
    auto listed = chip.fidelitiesByType.find(type);
    if (listed != chip.fidelitiesByType.end() && !listed->second.empty() &&
        std::find(listed->second.begin(), listed->second.end(), chosen) ==
            listed->second.end())
      chosen = listed->second.back();
    return chosen;
  }
  /// Dst tiles one acquire gives to an f32 accumulator.
  int64_t dstTiles() const { return chip.dstCapacity(/*f32=*/true); }
};

inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// A program named after `fn` on the whole grid of `chip`.
GridProgram gridProgram(mlir::func::FuncOp fn, const TileChip &chip);

/// The DRAM tensor of function argument `arg` padded to `rows` x `cols`.
mlir::FailureOr<TensorDecl> tensorFor(mlir::Operation *user,
                                      mlir::BlockArgument arg, int64_t rows,
                                      int64_t cols, bool output);
/// The DRAM tensor of argument `arg` of any rank as the matrix [elements /
/// last dimension, last dimension] padded to `rows` x `cols`.
mlir::FailureOr<TensorDecl> flatTensorFor(mlir::Operation *user,
                                          mlir::BlockArgument arg, int64_t rows,
                                          int64_t cols, bool output);
/// The DRAM tensor of a vector or scalar argument read per row (stored as a
/// column, replicated along the columns), per column (replicated along
/// the rows) or everywhere, `rows` x `cols`; its elements in order whatever
/// its rank.
mlir::FailureOr<TensorDecl> vectorTensorFor(mlir::Operation *user,
                                            mlir::BlockArgument arg,
                                            int64_t rows, int64_t cols,
                                            bool perRow, bool perColumn);
/// The function argument `v` is, or failure with a message at `user`.
mlir::FailureOr<mlir::BlockArgument> argumentOf(mlir::Operation *user,
                                                mlir::Value v);
/// True when `operand` of `op` is indexed by the last loop only (leading
/// dimensions, if any, by 0): a row broadcast along the rows.
bool isRowBroadcast(mlir::linalg::GenericOp op, mlir::OpOperand &operand);
/// How a row program reads an operand through `map` (of an op over
/// [rows..., cols]): whole (the identity), a value per row (every loop but
/// the last, in order) or per column (the last loop only); nullopt for any
/// other read (a transposed one).
enum class RowRead { Whole, PerRow, PerColumn };
std::optional<RowRead> rowReadOf(mlir::AffineMap map);
/// The op's scratchpad schedule, or failure (reported).
mlir::FailureOr<Schedule> scratchpadScheduleOf(mlir::linalg::LinalgOp op);
/// Reports that `fn` is not a shape the tile target lowers (`op`: the
/// first op that does not fit, if any).
mlir::LogicalResult unsupportedFunction(mlir::func::FuncOp fn,
                                        mlir::Operation *op);

/// A zero fill, a matmul or batch matmul and an optional elementwise
/// epilogue.
mlir::FailureOr<std::string>
lowerMatmulFunction(const LoweringTarget &target, mlir::func::FuncOp fn,
                    mlir::linalg::FillOp fill, mlir::linalg::LinalgOp matmul,
                    mlir::linalg::LinalgOp epilogueOp);
/// Whether an elementwise program reads input `operand` of `op` as its map
/// says: whole, transposed (a matrix or a batch of them), or a vector or
/// scalar broadcast along rows or columns (EltwiseLowering.cpp).
bool isElementwiseRead(mlir::linalg::GenericOp op, mlir::OpOperand &operand);
/// One elementwise op.
mlir::FailureOr<std::string> lowerEltwiseFunction(const LoweringTarget &target,
                                                  mlir::func::FuncOp fn,
                                                  mlir::linalg::GenericOp op);
/// A view of a buffer: a subview, a reshape, or a reinterpret_cast (a
/// permuted or broadcast read, PermutedReads.cpp).
bool isViewOp(mlir::Operation *op);
/// True when a memref.subview or a reinterpret_cast cuts `v` from its
/// buffer (through any reshapes): a view whose elements are not the whole
/// buffer in order (StridedViews.cpp).
bool isStridedView(mlir::Value v);
/// The buffer under `v`'s chain of subviews and reshapes.
mlir::Value bufferOf(mlir::Value v);
/// Gives every linalg op of `fn` that reads or writes a strided view a
/// buffer of its own, copied from the view before it (an input, or an
/// output whose old value it reads) and into the view after it (an
/// output): the tile programs read and write whole DRAM tensors, and the
/// copy program moves views.
void copyStridedOperands(mlir::func::FuncOp fn);
/// Gives every op of `fn` that accumulates into a buffer holding a fill
/// (a product, a reduction) that fill just before it, turns copies of a
/// filled buffer into fills and drops fills nothing reads
/// (FillForwarding.cpp).
void forwardFills(mlir::func::FuncOp fn);
/// Evaluates every float term of an elementwise body that depends only on
/// the iteration's indices and constants (a causal mask) into a constant
/// buffer (a memref.global) the op reads as one more input
/// (IndexTerms.cpp).
void tabulateIndexTerms(mlir::func::FuncOp fn);
/// The name of the constant `v` holds (a memref.get_global's), if any: the
/// DRAM tensor a program binds to it.
std::optional<llvm::StringRef> constantNameOf(mlir::Value v);
/// A buffer holding `value` for `user`: a constant memref.global named
/// after `name` (made unique) and its memref.get_global before `user`.
mlir::Value constantBuffer(mlir::IRRewriter &rewriter, mlir::Operation *user,
                           mlir::DenseElementsAttr value, llvm::StringRef name);
/// `op` with one more input, `buffer` read through `map`: a new generic
/// with the body moved over and a block argument for the input, returned
/// through `added` (IndexTerms.cpp).
mlir::linalg::GenericOp withInput(mlir::IRRewriter &rewriter,
                                  mlir::linalg::GenericOp op,
                                  mlir::Value buffer, mlir::AffineMap map,
                                  mlir::BlockArgument &added);
/// Makes every row reduction of `fn` over rows that are not whole tiles,
/// when no padding of the inputs leaves the reductions unchanged, reduce
/// select(column is real, x, identity): the condition a constant vector of
/// `true` whose padding reads false (MaskedRows.cpp).
void maskRaggedReductions(mlir::func::FuncOp fn, int64_t tileCols);
/// Gives every elementwise op's input read through a permutation or a
/// broadcast no program takes a buffer of the op's shape, copied from a
/// strided view of the input; a transpose no program takes becomes that
/// copy alone (PermutedReads.cpp).
void copyPermutedReads(mlir::func::FuncOp fn);
/// Unrolls every scf.forall of `fn` into its iterations, their offsets
/// folded into static subviews; an error names a loop of dynamic bounds
/// or too many iterations (ParallelLoops.cpp).
mlir::LogicalResult unrollParallelLoops(mlir::func::FuncOp fn);
/// Makes the output of every elementwise op of `fn` whose body reads the
/// output's old value an input of the op as well (InPlaceUpdates.cpp).
void readOldOutputsAsInputs(mlir::func::FuncOp fn);
/// One copy between (strided views of) two arguments (CopyLowering.cpp).
mlir::FailureOr<std::string> lowerCopyFunction(const LoweringTarget &target,
                                               mlir::func::FuncOp fn,
                                               mlir::memref::CopyOp copy);
/// Row reductions and elementwise passes over the rows of one 2-D shape.
mlir::FailureOr<std::string>
lowerRowFunction(const LoweringTarget &target, mlir::func::FuncOp fn,
                 llvm::ArrayRef<mlir::linalg::LinalgOp> ops);
/// The op of a reduction's body that combines its accumulator with the
/// reduced term: the yielded value's op, of two operands, one of them the
/// accumulator; `termIndex` is the other's.
struct RowCombine {
  mlir::Operation *op = nullptr;
  unsigned termIndex = 0;
  mlir::Value term() const { return op->getOperand(termIndex); }
};
std::optional<RowCombine> rowCombineOf(mlir::linalg::GenericOp op);
/// For a row program whose rows are padded (RowPadding.cpp): the value the
/// padding of each whole input read from DRAM holds (0 or -inf) so that
/// every reduction reads its identity there, or failure when no choice
/// does.
mlir::FailureOr<llvm::DenseMap<mlir::Value, float>>
chooseRowPadding(llvm::ArrayRef<mlir::linalg::LinalgOp> ops);

/// An attention (AttentionLowering.cpp) as one program: its text, no
/// value when `fn` is not an attention of the shape the program computes
/// (the caller splits it), or failure (reported).
mlir::FailureOr<std::optional<std::string>>
lowerAttentionFunction(const LoweringTarget &target, mlir::func::FuncOp fn);

/// A convolution input padded with zeros (ConvPadding.cpp): the function
/// argument copied into the interior of a zero-filled buffer at rows `top`
/// and columns `left`; `ops` are the fill, subview, copy and allocation.
struct ConvPadding {
  mlir::BlockArgument input;
  int64_t top = 0, left = 0;
  float value = 0; // what the padding holds
  mlir::Operation *subview = nullptr;
  llvm::SmallVector<mlir::Operation *> ops;
};
/// The padding of a convolution's input buffer, or failure when it is not
/// a copy of an argument padded with a constant.
mlir::FailureOr<ConvPadding> paddingOf(mlir::Value input);
/// True for the ops of such a padding: the convolution's reader pads.
bool isPaddingOp(mlir::Operation *op);

/// The groups of `fn`'s ops (linalg ops and copies, in order) that are
/// one program each (SplitLowering.cpp): a zero fill, its product and an
/// optional epilogue; a transpose; a run of row reductions and passes; a
/// lone elementwise op. One group: the function is one program; none: an
/// op no program takes (or no op at all). With `paddingInPlace`, a
/// convolution's padding ops belong to no group (its reader pads, which
/// one program does); else they are programs of their own (a part of a
/// split function does not hold them).
llvm::SmallVector<llvm::SmallVector<mlir::Operation *>>
programGroups(mlir::func::FuncOp fn, bool paddingInPlace);

/// On an argument of a split function's part: an output whose contents no
/// later part (nor the function's caller) reads.
inline constexpr llvm::StringLiteral kUnreadAfterAttr = "tile.unread_after";

/// One group of a split function as a function of its own (inserted
/// before the original, named `fn.i`): its arguments are its program's
/// DRAM tensors, inputs then outputs, and `binds[k]` names what argument
/// k stands for: the function's argument "argN" or a scratch tensor
/// "tmpN" shared with other parts.
struct ProgramPart {
  mlir::func::FuncOp fn;
  std::vector<std::string> binds;
};
mlir::FailureOr<llvm::SmallVector<ProgramPart>>
splitFunction(mlir::func::FuncOp fn,
              llvm::ArrayRef<llvm::SmallVector<mlir::Operation *>> groups);

} // namespace strata::tile

#endif // STRATA_TARGETS_TILE_FUNCTIONLOWERING_H
