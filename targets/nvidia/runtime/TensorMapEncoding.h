//===- TensorMapEncoding.h - cuTensorMapEncodeTiled arguments ---*- C++ -*-===//
//
// The arguments of the driver's cuTensorMapEncodeTiled for a bundle's
// tensor map (BundleFormat.h: TensorMapInfo): its enums and the extents,
// strides and box innermost first, as the driver takes them. Separate from the
// driver calls so that it is tested without a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_NVIDIA_TENSORMAPENCODING_H
#define STRATA_NVIDIA_TENSORMAPENCODING_H

#include "BundleFormat.h"

#include "strata/rt/Status.h"

#include <cstdint>
#include <vector>

namespace strata::nvidia {

/// A CUtensorMap: 128 opaque bytes, 64-byte aligned.
struct alignas(64) TensorMapBytes {
  uint64_t words[16] = {};
};

struct TiledEncoding {
  int dataType = 0; ///< CUtensorMapDataType
  uint32_t rank = 0;
  std::vector<uint64_t> globalDim;     ///< innermost first
  std::vector<uint64_t> globalStride;  ///< bytes, dims 1.. (rank - 1 values)
  std::vector<uint32_t> boxDim;        ///< innermost first
  std::vector<uint32_t> elementStride; ///< all 1
  int interleave = 0;                  ///< CU_TENSOR_MAP_INTERLEAVE_NONE
  int swizzle = 0;                     ///< CUtensorMapSwizzle
  int l2Promotion = 0;                 ///< CUtensorMapL2promotion
  int oobFill = 0; ///< CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE (zeros)
};

/// The encoding of `map`, or an error for what the driver does not take
/// (element type, rank, box over 256, strides not multiples of 16 bytes).
rt::Result<TiledEncoding> tiledEncoding(const TensorMapInfo &map);

} // namespace strata::nvidia

#endif // STRATA_NVIDIA_TENSORMAPENCODING_H
