//===- Ptxas.h - Assembling PTX with the CUDA toolkit's ptxas ---*- C++ -*-===//
#ifndef STRATA_NVIDIA_PTXAS_H
#define STRATA_NVIDIA_PTXAS_H

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace strata::nvidia {

/// ptxas from $STRATA_PTXAS, $CUDA_PATH/bin, /usr/local/cuda/bin or PATH;
/// nullopt when there is none.
std::optional<std::string> findPtxas();

/// libdevice.10.bc of the CUDA toolkit ($CUDA_PATH, $CUDA_HOME or
/// /usr/local/cuda); nullopt when there is none.
std::optional<std::string> findLibdevice();

struct Assembled {
  std::string cubin;
  std::string log; ///< ptxas -v: registers, shared memory, spills per kernel
};

/// Assembles `ptx` for `arch` with -O3 -v.
llvm::Expected<Assembled> runPtxas(const std::string &ptxas,
                                   llvm::StringRef ptx, llvm::StringRef arch);

/// One kernel's resources as ptxas reports them.
struct KernelResources {
  int64_t registers = 0;
  int64_t staticSharedBytes = 0;
};

/// The resources of every entry function of a `ptxas -v` log ("Compiling
/// entry function 'k'", then "Used N registers, ..., S bytes smem").
llvm::StringMap<KernelResources> parsePtxasLog(llvm::StringRef log);

} // namespace strata::nvidia

#endif // STRATA_NVIDIA_PTXAS_H
