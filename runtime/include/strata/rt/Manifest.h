//===- Manifest.h - What an artifact says about itself ----------*- C++ -*-===//
//
// Every artifact written by `strata-compile --emit=lib` carries a manifest
// (JSON): the chip it was compiled for, the kind of device that runs it,
// and per exported function its destination-passing signature, its work
// (flops and the bytes it must move), the roofline time of that work on the
// chip, and the relative error each output may have. The runtime needs it
// to call a function without the compiler; strata-exec to check and rate.
// A host library exports it as the C string `strata_manifest`; an NVIDIA
// bundle holds it under "manifest".
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_RT_MANIFEST_H
#define STRATA_RT_MANIFEST_H

#include "strata/rt/Status.h"
#include "strata/rt/Tensor.h"

#include <string>
#include <vector>

namespace strata::rt {

struct FunctionInfo {
  Signature signature;
  double flops = 0;               ///< arithmetic operations of one call
  double bytes = 0;               ///< the fewest bytes one call moves
  double rooflineSeconds = 0;     ///< the chip's roofline time of that work
  std::vector<double> tolerances; ///< per output: the allowed relative error
  /// The explicit mantissa bits the chip's matrix units keep of the
  /// function's f32 operands (tf32: 10); 0 when they keep them whole.
  int64_t inputMantissaBits = 0;
};

struct Manifest {
  std::string chip;       ///< the description's name
  std::string deviceKind; ///< "host", "cuda", ...
  std::vector<FunctionInfo> functions;

  const FunctionInfo *find(const std::string &name) const;
  std::string toJson() const;
  /// Parses `text`; errors name `source` and the JSON path.
  static Result<Manifest> fromJson(const std::string &text,
                                   const std::string &source);
};

} // namespace strata::rt

#endif // STRATA_RT_MANIFEST_H
