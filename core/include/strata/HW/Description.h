//===- Description.h - The hardware description of a chip -------*- C++ -*-===//
//
// A chip is known to Strata only through its hardware description: a JSON
// document (docs/hardware-description.md) loaded into these plain structs.
// Every size is in bytes, every rate per second, every latency in cycles of
// the description's clock unless a field's name says otherwise.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_HW_DESCRIPTION_H
#define STRATA_HW_DESCRIPTION_H

#include "llvm/ADT/StringRef.h"
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace strata::hw {

/// One problem found in a description: `path` is a JSON pointer
/// ("/memory/2/capacity_bytes"), or empty for the whole document; `line` and
/// `column` are set (1-based) for syntax errors.
struct Diagnostic {
  std::string path;
  std::string message;
  int line = 0;
  int column = 0;
};

/// A level of the compute hierarchy, outermost first (chip, cores, lanes...).
/// `count` is the number of instances inside one instance of the level above.
struct ComputeLevel {
  std::string name;
  int64_t count = 1;
};

/// A data-movement engine attached to a memory level (DMA, TMA, NoC).
struct MovementEngine {
  std::string kind;              // "dma", "tma", "noc"
  double setupLatencyCycles = 0; // fixed cost per transfer
  double bytesPerCycle = 0;      // sustained rate per engine
  int64_t flitBytes = 0;         // NoC flit size (0: not a NoC)
  double hopLatencyCycles = 0;   // NoC per-hop latency
  int64_t count = 1;             // engines per owning unit
  nlohmann::json extra;          // engine-specific fields as given
};

/// A level of the memory hierarchy, farthest from compute first.
struct MemoryLevel {
  std::string name;
  std::string kind;              // "cache" or "scratchpad" (or "dram" for main)
  int64_t capacityBytes = 0;     // per instance of `owner`
  std::string owner;             // compute level that owns one instance
  double bandwidthBytesPerS = 0; // per instance of `owner`
  double latencyCycles = 0;
  int64_t alignmentBytes = 1;
  int64_t banks = 0; // DRAM banks / channels (0: not banked)
  // The lanes can copy into this level asynchronously from farther levels,
  // committing copies in groups and waiting for all but the newest groups.
  bool asyncCopy = false;
  // An engine copies whole rectangular tiles (boxes) of a row-major array
  // from a farther level into this one asynchronously, in a layout of its
  // own choosing; the lanes wait for a tile's bytes to arrive.
  bool bulkTensorCopy = false;
  std::optional<MovementEngine> engine;
};

/// Vector (SIMD) unit of one compute unit.
struct VectorUnit {
  int64_t widthBits = 0;
  std::vector<std::string> elementTypes;
  std::string level;    // compute level that owns one vector unit
  int64_t fmaPipes = 1; // independent FMA pipes per unit
  int64_t fmaLatencyCycles = 4;
  int64_t registers = 16; // architectural vector registers
};

/// A matrix instruction: C[m x n] += A[m x k] * B[k x n].
struct MatrixIntrinsic {
  std::string name;
  int64_t m = 0, n = 0, k = 0;
  std::string aType, bType, accType;
  std::string level; // compute level that issues it
  double cyclesPerInstruction = 0;
  nlohmann::json layout; // operand layout constraints (tiles, faces...)
  std::vector<std::string> fidelities; // optional precision phases
  /// Passes of the engine per fidelity; an instruction at fidelity F takes
  /// cyclesPerInstruction * fidelityPasses[F] cycles.
  std::map<std::string, int64_t> fidelityPasses;
  /// The fidelity compiled code runs at (one of `fidelities`; empty: the
  /// plugin's choice).
  std::string defaultFidelity;
  /// The fewest passes of any fidelity (1 without fidelities).
  int64_t fastestPasses() const;
  /// Explicit mantissa bits the engine keeps of each operand element (0: all
  /// of the operand type's), e.g. 10 for f32 operands read as TF32.
  int64_t inputMantissaBits = 0;
  /// The scratchpad level the results accumulate in when it is not the one
  /// the operands are staged in (a systolic array's accumulator SRAM); empty:
  /// the accumulators share the operands' scratchpad.
  std::string accumulator;
  /// How fast the unit's operand path reads operand tiles from its memory
  /// (bytes per cycle): one operand stream alone, and two together (they
  /// may share ports); 0: as fast as the memory's bandwidth.
  double operandBytesPerCycleOne = 0, operandBytesPerCycleTwo = 0;
  /// How fast results are written back to the memory (bytes per cycle);
  /// 0: at the memory's bandwidth.
  double resultBytesPerCycle = 0;
  /// The chip-specific format the plugin stores operands in for this
  /// intrinsic (e.g. a block float, "bfp8"); empty: their own type. Their
  /// precision for checks is `inputMantissaBits`.
  std::string operandFormat;
};

/// A loaded, validated description.
struct Description {
  std::string name;
  std::string plugin;
  std::string arch;
  std::string summary;
  double clockHz = 0;
  std::vector<ComputeLevel> compute;
  std::vector<MemoryLevel> memory;
  std::optional<VectorUnit> vector;
  std::vector<MatrixIntrinsic> matrix;     // preference order
  std::map<std::string, double> peakFlops; // given peaks, FLOP/s per type
  nlohmann::json targetOptions; // plugin-specific section, plugin-validated
  nlohmann::json document;      // the whole document as loaded

  const ComputeLevel *findCompute(llvm::StringRef levelName) const;
  const MemoryLevel *findMemory(llvm::StringRef levelName) const;
  /// Number of instances of `levelName` in the whole chip (product of counts
  /// down to and including that level); 0 if the level does not exist.
  int64_t totalUnits(llvm::StringRef levelName) const;
  /// Capacity of the largest memory of kind "cache" (0 without caches).
  int64_t largestCacheBytes() const;
};

/// Options of the loader: `knownPlugins` (when not empty) lists the plugin
/// names the registry knows; any other `plugin` value is an error.
struct LoadOptions {
  std::vector<std::string> knownPlugins;
};

/// The outcome of loading: a description, or every error found.
struct LoadResult {
  std::optional<Description> description;
  std::vector<Diagnostic> errors;
  std::string sourceName; // file path or "<name>" of a shipped description
  explicit operator bool() const { return description.has_value(); }
  /// All errors, one per line: "<source>:<line>:<col>: error: ..." for syntax
  /// errors, "<source>: error: at /json/path: ..." otherwise.
  std::string formatErrors() const;
};

/// Parse and validate `text` (the contents of `sourceName`).
LoadResult parseDescription(llvm::StringRef text, llvm::StringRef sourceName,
                            const LoadOptions &options = {});
/// Validate an already parsed JSON document.
LoadResult loadDescriptionJson(const nlohmann::json &doc,
                               llvm::StringRef sourceName,
                               const LoadOptions &options = {});
/// Read and validate a file.
LoadResult loadDescriptionFile(llvm::StringRef path,
                               const LoadOptions &options = {});

/// Descriptions shipped with Strata (embedded at build time), by name.
std::vector<std::string> shippedDescriptionNames();
/// The JSON text of a shipped description, or nullopt.
std::optional<std::string> shippedDescriptionText(llvm::StringRef name);

} // namespace strata::hw

#endif // STRATA_HW_DESCRIPTION_H
