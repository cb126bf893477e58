//===- Reference.h - What a tile program should compute ---------*- C++ -*-===//
#ifndef STRATA_TILE_TOOLS_REFERENCE_H
#define STRATA_TILE_TOOLS_REFERENCE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace strata::tile {

/// A row-major matrix of the host.
struct Matrix {
  int64_t rows = 0, cols = 0;
  std::vector<double> values;
};

/// The names computeReference knows, for --help and errors.
llvm::StringRef referenceNames();

/// The plain C++ result of `name` (matmul: a x b; add: a + b; softmax:
/// softmax of each row of a) on `inputs`, in double precision; an error
/// when the inputs do not fit the operation or `out` its result's shape.
llvm::Expected<Matrix> computeReference(llvm::StringRef name,
                                        const std::vector<Matrix> &inputs,
                                        int64_t outRows, int64_t outCols);

} // namespace strata::tile

#endif // STRATA_TILE_TOOLS_REFERENCE_H
