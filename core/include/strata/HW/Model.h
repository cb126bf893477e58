//===- Model.h - Quantities derived from a hardware description -*- C++ -*-===//
//
// The roofline of a chip, computed from its description alone: peak FLOP/s
// per element type and compute level, bandwidth and capacity per memory level,
// and machine balance. Nothing here is chip-specific; every number comes from
// description fields (docs/hardware-description.md, "Derived model").
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_HW_MODEL_H
#define STRATA_HW_MODEL_H

#include "strata/HW/Description.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace strata::hw {

/// The element types a description may name: floating-point types widest
/// first, then integers widest first.
const std::vector<std::string> &knownElementTypes();
/// Storage width of an element type in bits; 0 if `type` is not known.
int64_t elementTypeBits(llvm::StringRef type);

/// A quantity for one instance of a compute level.
struct LevelValue {
  std::string level;
  double value = 0;
};

/// Peak rate of one element type: the best unit that computes it.
struct TypePeak {
  std::string elementType;
  double flops = 0;        // whole chip, FLOP/s (integer types: op/s)
  std::string source;      // "vector" or the name of the matrix intrinsic
  std::string sourceLevel; // compute level that issues the source's work
  /// FLOP/s of one instance of each compute level, outermost first, for the
  /// levels at or above the issuing level of some unit computing this type
  /// (the best such unit at each level).
  std::vector<LevelValue> perLevel;
  double given = 0; // peaks_flops entry of the description, 0 if absent
};

/// One memory level as the model sees it.
struct MemoryModel {
  std::string name;
  std::string kind;
  std::string owner;
  int64_t instances = 0;           // instances of `owner` in the chip
  double capacityPerInstance = 0;  // bytes, per instance of `owner`
  double capacityTotal = 0;        // bytes, whole chip
  double bandwidthPerInstance = 0; // bytes/s, per instance of `owner`
  double bandwidthTotal = 0;       // bytes/s, whole chip
  /// Capacity per instance of each compute level (capacityTotal divided by
  /// that level's unit count), outermost first.
  std::vector<LevelValue> capacityPerUnit;
  double balanceF32 = 0;    // chip f32 FLOP/s / bandwidthTotal (FLOP/byte)
  double balanceMatrix = 0; // same for the best matrix element type
};

/// One matrix intrinsic as the model sees it.
struct IntrinsicModel {
  std::string name;
  std::string elementType;        // operand A's type, the key of its peak
  double flopsPerInstruction = 0; // 2*m*n*k
  int64_t issuingUnits = 0;       // instances of its level in the chip
  /// Chip FLOP/s at each fidelity, in the order the description lists them;
  /// one entry with an empty name when it has no fidelities.
  std::vector<std::pair<std::string, double>> flopsByFidelity;
  double flops = 0; // chip FLOP/s at the fastest fidelity
};

struct DerivedModel {
  std::vector<TypePeak> peaks;        // in knownElementTypes() order
  std::vector<MemoryModel> memory;    // the description's order
  std::vector<IntrinsicModel> matrix; // preference order
  /// The floating-point type with the highest matrix peak; "" if none.
  std::string bestMatrixType;

  const TypePeak *findPeak(llvm::StringRef elementType) const;
  /// Chip FLOP/s for `elementType`, 0 if no unit computes it.
  double peakFlops(llvm::StringRef elementType) const;
  const MemoryModel *findMemory(llvm::StringRef name) const;
};

/// Derive the model. `desc` should be a loaded (validated) description; on
/// anything else the result is well defined but may hold zeros.
DerivedModel deriveModel(const Description &desc);

/// The one-screen text of `strata-hw info`.
std::string formatModel(const Description &desc, const DerivedModel &model);
/// The short text of `strata-hw validate` for a valid description.
std::string formatSummary(const Description &desc);

/// A rate or size with a metric prefix and four significant digits:
/// "989.4 TFLOP/s", "4.8 TB/s", "1.5 MiB" (binary prefixes when `binary`).
std::string formatQuantity(double value, llvm::StringRef unit,
                           bool binary = false);

} // namespace strata::hw

#endif // STRATA_HW_MODEL_H
