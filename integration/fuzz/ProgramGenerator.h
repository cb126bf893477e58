//===- ProgramGenerator.h - Bytes to a valid tensor program -----*- C++ -*-===//
//
// The structure-aware half of the compile-driver fuzzer: every byte string
// decodes to a valid linalg program on tensors (1-5 steps on a 2-D value:
// elementwise bodies that may use a value twice, binary ops with full, row
// or column operands, matmuls in f32 or bf16, row reductions broadcast
// back, transposes, softmax), with shapes drawn from sizes around tile
// edges (1, primes, 16 +- 1, 32 +- 1, ...). Mutating the bytes mutates the
// program's ops, shapes and element types.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_FUZZ_PROGRAMGENERATOR_H
#define STRATA_FUZZ_PROGRAMGENERATOR_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace strata::fuzz {

/// Reads bytes front to back; past the end every read gives 0.
class ByteReader {
public:
  ByteReader(const uint8_t *data, size_t size) : data(data), size(size) {}
  unsigned next(unsigned choices) {
    return choices == 0 || at >= size ? 0 : data[at++] % choices;
  }

private:
  const uint8_t *data;
  size_t size, at = 0;
};

/// The MLIR text of the program `bytes` decode to (function @fuzz).
std::string generateProgram(ByteReader &bytes);

} // namespace strata::fuzz

#endif // STRATA_FUZZ_PROGRAMGENERATOR_H
