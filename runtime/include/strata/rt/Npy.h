//===- Npy.h - NumPy .npy files ---------------------------------*- C++ -*-===//
//
// Inputs and expected outputs travel between machines as .npy files
// (format versions 1 to 3, little-endian, C order). NumPy has no bf16: a
// bf16 array is stored as its raw 16-bit patterns ('<u2'), and read from
// '<u2', '<i2' or '<V2' when the function's signature says bf16.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_RT_NPY_H
#define STRATA_RT_NPY_H

#include "strata/rt/Status.h"
#include "strata/rt/Tensor.h"

#include <string>
#include <vector>

namespace strata::rt {

struct NpyArray {
  std::string descr; ///< NumPy's type string, e.g. "<f4"
  std::vector<int64_t> shape;
  std::vector<char> data;
};

/// The .npy type string Strata writes for `type`.
const char *npyDescr(ElementType type);

/// Parses a whole .npy file's bytes; `name` is used in messages.
Result<NpyArray> parseNpy(const std::string &bytes, const std::string &name);
Result<NpyArray> readNpy(const std::string &path);
Status writeNpy(const std::string &path, const TensorSpec &spec,
                const void *data);

/// Ok when `array` holds a tensor of `spec`; otherwise an error naming
/// `what` (e.g. "--input #0 (a.npy)") and the expected and found type and
/// shape.
Status checkNpy(const NpyArray &array, const TensorSpec &spec,
                const std::string &what);

} // namespace strata::rt

#endif // STRATA_RT_NPY_H
