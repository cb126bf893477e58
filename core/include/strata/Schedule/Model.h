//===- Model.h - The analytical schedule model ------------------*- C++ -*-===//
//
// Chooses a Schedule for one structured op from the hardware description
// alone: register tiles sized to the vector registers and FMA latency, cache
// tiles sized to each cache level's capacity by the data reused there, and
// the split over the compute level that owns the vector units. No
// operator names and no per-size tables: the op is seen as a loop nest with
// operands indexed by loops.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_SCHEDULE_MODEL_H
#define STRATA_SCHEDULE_MODEL_H

#include "strata/HW/Description.h"
#include "strata/Schedule/Schedule.h"

namespace strata {

/// The shape of a structured op as the model sees it.
struct LoopNest {
  std::vector<int64_t> extents;
  std::vector<bool> reduction; // per loop
  struct Operand {
    Operand(std::vector<int64_t> dims = {}, bool output = false,
            std::vector<int64_t> windowLoops = {})
        : dims(std::move(dims)), output(output),
          windowLoops(std::move(windowLoops)) {}
    /// Loop indexing each dimension of the operand, outermost dimension
    /// first; -1 where the index is not a single loop (e.g. a convolution's
    /// `oh + kh`).
    std::vector<int64_t> dims;
    bool output = false;
    /// Loops read through the dimensions that are not a single loop (a
    /// convolution input's oh, kh, ow, kw): a window over them.
    std::vector<int64_t> windowLoops;
    /// Whether a dimension of the operand is indexed by `loop` alone.
    bool uses(int64_t loop) const;
    /// Whether `loop` takes part in indexing the operand at all.
    bool reads(int64_t loop) const;
    bool windowed() const { return !windowLoops.empty(); }
  };
  std::vector<Operand> operands;
  /// Each operand's element type as MLIR prints it ("bf16", "f32"), in
  /// operand order; empty when unknown.
  std::vector<std::string> elementTypes;
  int64_t elementBytes = 4;
  /// Arithmetic per innermost iteration (2 for a multiply-add).
  double flopsPerIteration = 2;
};

/// The schedule of `nest` on `chip`. Never fails: an op the model has no
/// better plan for gets a vectorized elementwise schedule.
Schedule chooseSchedule(const LoopNest &nest, const hw::Description &chip);

/// The register tile of a contraction: `rows` broadcast elements times
/// `vectors` vector registers of accumulators, chosen to maximize FMAs per
/// loaded element within the register file while hiding the FMA latency.
struct RegisterBlock {
  int64_t rows = 1;
  int64_t vectors = 1;
};
RegisterBlock chooseRegisterBlock(const hw::VectorUnit &unit, int64_t maxRows,
                                  int64_t maxVectors);

/// Rows of a row-wise group computed together (e.g. the query rows of an
/// attention block): as many as keep `rowBytes` per row of intermediates in
/// half of the second cache level a vector unit owns, whole register tiles
/// of `registerRows` where there is room for one, at least 1 and at most
/// `rows`.
int64_t chooseRowBlock(const hw::Description &chip, double rowBytes,
                       int64_t registerRows, int64_t rows);

} // namespace strata

#endif // STRATA_SCHEDULE_MODEL_H
