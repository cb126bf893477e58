//===- Programs.h - The tile programs S5 writes -----------------*- C++ -*-===//
//
// Plans of the programs the lowering writes (every number already decided:
// by the core's schedule or by the chip) and the writers that turn a plan
// into a tile.program in the dialect's syntax.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TARGETS_TILE_PROGRAMS_H
#define STRATA_TARGETS_TILE_PROGRAMS_H

#include "strata/Tile/Emulator/Numerics.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace strata::tile {

/// A DRAM tensor of a program: `rows` x `cols` elements (whole tiles); the
/// host's shape when it differs (the runtime pads with `padValue`, zero by
/// default: -inf where a row reduction by max reads it; or repeats a
/// 1-D row in every row with `replicateRows`, a column in every column with
/// `replicateCols`, and crops outputs).
struct TensorDecl {
  std::string name;
  bool output = false;
  int64_t rows = 0, cols = 0;
  std::string type; // bf16, f32, or bfp8 / bfp4 (stored; host data bf16)
  std::vector<int64_t> hostShape;
  bool replicateRows = false;
  bool replicateCols = false; // a column [rows x 1] fills every column
  bool flatten = false;       // host data as [elements / last dim, last dim]
  float padValue = 0.0f;      // what the padding holds (inputs)
  bool column = false; // host data [.., n] is column 0 of n rows (a vector
                       // of per-row results)
  bool vector = false; // host data's elements in order, whatever its shape
                       // ([n], [1, n], [n, 1], a scalar): one row of them,
                       // or with `column` one column

  /// Whether `o` declares the same DRAM tensor (one an op may read twice).
  bool sameAs(const TensorDecl &o) const {
    auto key = [](const TensorDecl &t) {
      return std::tie(t.name, t.output, t.rows, t.cols, t.type, t.hostShape,
                      t.replicateRows, t.replicateCols, t.flatten, t.padValue,
                      t.column, t.vector);
    };
    return key(*this) == key(o);
  }
};

/// The dialect's spelling of an element type name (bfp8 -> !tile.bfp8).
inline std::string elementTypeText(const std::string &type) {
  return type == "bfp8" || type == "bfp4" ? "!tile." + type : type;
}

/// Bytes of a stored tile of `elements` of `type` (block floats: one
/// exponent byte per 16 elements, padded to 16, then the elements).
inline int64_t storedTileBytes(const std::string &type, int64_t elements) {
  int64_t exponents = blockFloatExponentBytes(elements);
  if (type == "bfp8")
    return exponents + elements;
  if (type == "bfp4")
    return exponents + elements / 2;
  return elements * (type == "bf16" ? 2 : 4);
}

/// An elementwise computation on Dst slots: operand 0.. are tiles of the
/// program's buffers (for an epilogue, operand 0 is the accumulator, already
/// in slot 0), each step one tile op.
struct Expression {
  struct Step {
    enum Kind { Load, Binary, Unary, Scalar, Copy, Where } kind = Load;
    int operand = 0;      // Load: which operand
    std::string op;       // Binary: add, sub, mul, max, min; Unary: exp, ...;
                          // Scalar: add, sub, rsub, mul, max, min, the
                          // comparisons eq ... ge, fill
    float scalar = 0;     // Scalar: the immediate (in place, like Unary)
    int lhs = 0, rhs = 0; // Binary: the operands' slots; Copy: the source;
                          // Where: the condition's and the true value's
    int third = 0;        // Where: the false value's slot
    int slot = 0;         // the result's slot (Unary, Scalar: in place)
  };
  std::vector<Step> steps;
  int result = 0; // slot packed at the end
  int slots = 1;  // Dst slots used
};

/// Translates the body of an elementwise linalg.generic whose inputs are
/// operands `firstOperand`... (inputs before it are already in slots
/// 0..firstOperand-1) into at most `capacity` slots; an error names the op
/// the tile engines lack, or the op that needs more slots than `capacity`.
/// With `end` (a reduction's combining op), the expression stops there and
/// computes the combine's operand other than the accumulator.
llvm::Expected<Expression> translateBody(mlir::linalg::GenericOp op,
                                         int firstOperand, int64_t capacity,
                                         mlir::Operation *end = nullptr);

/// A convolution's A operand (its implicit GEMM, ConvGather.cpp): row m of
/// A is output pixel m (images, rows, columns flattened), K tile kk the
/// `tileCols` channels kk mod (channels / tileCols) of filter tap
/// kk div (channels / tileCols) (taps row-major); the input is an NHWC
/// tensor declared as [images x height x width, channels].
struct ConvGather {
  int64_t height = 0, width = 0, channels = 0; // input
  int64_t outHeight = 0, outWidth = 0;
  int64_t kernelWidth = 1, taps = 1; // taps: kernel height x width
  int64_t strideH = 1, strideW = 1, dilationH = 1, dilationW = 1;
  int64_t padTop = 0, padLeft = 0; // padding rows and columns before it
  float padValue = 0;              // what the padding holds
  bool padded = false; // any padding (before or after): pixels are checked
  int64_t pixels = 0;  // output pixels (rows of A that exist)
  int64_t faceRows = 16, faceCols = 16;
};

/// C = epilogue(A x B) on a rows x cols block of cores.
struct MatmulPlan {
  std::string name;
  std::vector<TensorDecl> tensors; // declaration order (the function's)
  TensorDecl a, b, c;
  std::vector<TensorDecl> epilogueInputs; // row-broadcast (bias) tensors
  Expression epilogue;                    // empty steps: none
  int64_t batch = 1;  // products (a batch matmul), stacked in the tensors
  int64_t groups = 1; // products at once, each on its own rows of cores
  int64_t mt = 0, nt = 0, kt = 0; // padded extents, in tiles
  int64_t rows = 1, cols = 1;     // cores used
  int64_t mb = 1, nb = 1, kb = 1; // block and k step, in tiles
  int64_t stages = 2;             // copies of A's and B's blocks
  int64_t subblock = 1;           // output tiles per Dst acquire
  bool multicastA = false, multicastB = false;
  int64_t tileRows = 32, tileCols = 32;
  std::string fidelity;
  std::optional<ConvGather> conv; // A gathered from a convolution's input
};
std::string writeMatmulProgram(const MatmulPlan &plan);

/// A program over the whole grid: its name, the grid and the tile shape.
struct GridProgram {
  std::string name;
  int64_t rows = 1, cols = 1; // cores
  int64_t tileRows = 32, tileCols = 32;
};

/// out = expression(inputs), tile by tile, round robin over the cores.
struct EltwisePlan : GridProgram {
  std::vector<TensorDecl> tensors; // declaration order (the function's)
  std::vector<TensorDecl> inputs;  // the expression's operands
  TensorDecl out;
  Expression expression;
  int64_t rowTiles = 0, colTiles = 0; // of the output
  int64_t depth = 2;                  // tiles each buffer holds
  /// Inputs read transposed (a transpose, or an op of a transposed read):
  /// output tile (r, c) of matrix b reads the transpose of the input's
  /// tile (c, r) of matrix b, the matrices stacked, `batchRowTiles`
  /// tile-rows of the output each.
  std::vector<bool> transposed;
  int64_t batchRowTiles = 0;
};
std::string writeEltwiseProgram(const EltwisePlan &plan);

/// Row-wise programs (a softmax): core t mod (rows x cols) owns tile-row
/// t; per row the reader brings the row's tiles of every 2-D input, the
/// compute kernel runs the steps on the row held in L1, the writer writes
/// the last step's row.
struct RowPlan : GridProgram {
  /// A buffer of the program: `tiles` tiles of `type`.
  struct Buffer {
    std::string name, type;
    int64_t tiles = 1;
    bool vector = false; // one tile holding a value per row in column 0
  };
  /// A reduction of a row into a vector, or an elementwise step.
  struct Step {
    std::string reduce;                // "sum" or "max"; "" elementwise
    std::vector<std::string> operands; // buffers
    std::string result;                // buffer ("out": the output)
    Expression expression;             // elementwise steps
    std::string copyTo; // a result also written to DRAM: its out buffer
  };
  std::vector<TensorDecl> tensors;
  std::vector<std::pair<TensorDecl, std::string>> inputs; // tensor, buffer
  TensorDecl out;
  /// Results of steps before the last that a later program (or the
  /// caller) reads: the tensor and the buffer the step also packs into.
  std::vector<std::pair<TensorDecl, std::string>> extraOuts;
  std::vector<Buffer> buffers; // inputs' first, then results, then "out"
  std::vector<Step> steps;
  int64_t rowTiles = 0, colTiles = 0;
};
llvm::Expected<std::string> writeRowProgram(const RowPlan &plan);

/// O = softmax(scale Q K^T) V in one program (AttentionProgram.cpp): the
/// heads stacked in the tensors, every number from the core's attention
/// schedule (ScratchpadAttention.h).
struct AttentionPlan {
  struct Buffer {
    std::string name, type;
    int64_t tiles = 1;
  };
  std::string name;
  std::vector<TensorDecl> tensors; // declaration order (the function's)
  TensorDecl q, k, v, o;
  int64_t qt = 0, kt = 0, dt = 0, dvt = 0; // per head, in tiles
  int64_t rows = 1, cols = 1;              // cores used
  int64_t blocks = 1;                      // query tile-rows per core
  int64_t kb = 1;                          // key tiles per step
  bool multicast = false;
  bool scaled = false;
  float scale = 1;
  std::vector<Buffer> buffers; // the schedule's, in its order
  int64_t tileRows = 32, tileCols = 32;
  std::string fidelity;
  /// The schedule's decision and prediction, shown on the program as the
  /// `attention` attribute (a dictionary's body).
  std::string decision;
};
std::string writeAttentionProgram(const AttentionPlan &plan);

/// A copy between strided views of two DRAM tensors (CopyProgram.cpp): a
/// slice, the interior of a pad, any memref.copy. Element `idx` of the
/// view (row-major over `shape`, no dimension of size one) is element
/// `offset + sum(idx[k] * strides[k])` of its tensor in the host's
/// row-major order; the program declares each tensor flat, as
/// [elements / last, last].
struct CopyPlan : GridProgram {
  struct Side {
    TensorDecl tensor;
    int64_t offset = 0;
    std::vector<int64_t> strides; // one per dimension of `shape`
    int64_t last = 1;             // the tensor's last dimension
    /// Every row of the view (its last dimension) is consecutive elements
    /// of one row of the tensor: read or written a face row at a time.
    bool contiguous = false;
  };
  std::vector<TensorDecl> tensors; // declaration order (the function's)
  Side from, to;
  std::vector<int64_t> shape;
  int64_t elementBytes = 4;
  int64_t faceRows = 16, faceCols = 16;
};
std::string writeCopyProgram(const CopyPlan &plan);

/// Shared by the writers: the declaration of a DRAM tensor.
std::string declareTensor(const TensorDecl &tensor);
/// Reads the rows x cols A tiles of a convolution at tile (row0, col0) of
/// its implicit GEMM into the slots at `ptr` (ConvGather.cpp); rows in the
/// padding are copied from the zero tile at `zero` of core [row, col].
class KernelText;
void gatherConvTiles(KernelText &k, const MatmulPlan &p, const std::string &ptr,
                     const std::string &row0, const std::string &col0,
                     int64_t rows, int64_t cols, const std::string &row,
                     const std::string &col, const std::string &zero);
/// The Dst ops of `expr` for one output tile: operand k is tile
/// `tiles[k]` of buffer `buffers[k]`, slots are counted from `base` (an
/// index value; "" for 0). Operands marked in `broadcast` hold a vector in
/// column 0 of their tile, broadcast along the columns: the second operand
/// of a tile.binary when the first is an operand too, else unpacked to Dst
/// with the unpacker's broadcast.
llvm::Error emitExpression(KernelText &k, const Expression &expr,
                           const std::vector<std::string> &buffers,
                           const std::vector<std::string> &tiles,
                           const std::string &base,
                           const std::vector<bool> &broadcast = {},
                           const std::vector<bool> &transposed = {});

} // namespace strata::tile

#endif // STRATA_TARGETS_TILE_PROGRAMS_H
