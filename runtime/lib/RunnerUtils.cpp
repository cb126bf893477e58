//===- RunnerUtils.cpp - The print and check functions of MLIR tests ------===//
//
// The C entry points MLIR's execution tests declare and call (see
// RunnerUtils.h). Each memref printer reads the descriptor through its rank
// and prints with the stream operator of its element type, as MLIR's own
// printers do, so that the tests' CHECK lines match character for
// character.
//
//===----------------------------------------------------------------------===//
#include "strata/rt/RunnerUtils.h"
#include "strata/rt/HalfFloat.h"

#include <chrono>
#include <cinttypes>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <random>
#include <vector>

#define STRATA_RUNNER_EXPORT extern "C" __attribute__((visibility("default")))

using strata::rt::MemRefView;
using strata::rt::UnrankedMemRef;

MemRefView MemRefView::of(int64_t rank, void *descriptor) {
  // {allocated, aligned, offset, sizes[rank], strides[rank]}
  auto *pointers = static_cast<char **>(descriptor);
  auto *fields = reinterpret_cast<const int64_t *>(pointers + 2);
  MemRefView view;
  view.rank = rank;
  view.data = pointers[1];
  view.offset = fields[0];
  view.sizes = fields + 1;
  view.strides = fields + 1 + rank;
  return view;
}

int64_t MemRefView::numElements() const {
  int64_t n = 1;
  for (int64_t d = 0; d < rank; ++d)
    n *= sizes[d];
  return n;
}

namespace {

void printList(std::ostream &os, const int64_t *values, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    os << (i ? ", " : "") << values[i];
}

void printMetadata(std::ostream &os, const MemRefView &view) {
  // The address as a 0x-prefixed hexadecimal integer on every platform.
  os << "base@ = " << std::hex << std::showbase
     << reinterpret_cast<std::intptr_t>(view.data) << std::dec
     << std::noshowbase << " rank = " << view.rank
     << " offset = " << view.offset << " sizes = [";
  printList(os, view.sizes, view.rank);
  os << "] strides = [";
  printList(os, view.strides, view.rank);
  os << "]";
}

/// Dimension `dim` of `view` from `offset` (in elements): rows in brackets,
/// ", " between elements, a newline between rows, continuation rows
/// indented by their depth.
void printDims(std::ostream &os, const MemRefView &view, int64_t dim,
               int64_t offset, int64_t elementBytes,
               void (*print)(std::ostream &, const char *)) {
  if (dim == view.rank) {
    print(os, view.data + offset * elementBytes);
    return;
  }
  int64_t size = view.sizes[dim];
  bool inner = dim + 1 == view.rank;
  os << "[";
  for (int64_t i = 0; i < size; ++i) {
    if (i) {
      os << ", ";
      if (!inner)
        os << "\n";
      os << std::string(size_t(dim + 1), ' ');
    }
    printDims(os, view, dim + 1, offset + i * view.strides[dim], elementBytes,
              print);
  }
  os << "]";
}

/// An element of the memory at `p`: f16 and bf16 read (and print and
/// compare) as the f32 they widen to.
template <typename T> T load(const char *p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}
float loadF16(const char *p) { return strata::rt::fromF16(load<uint16_t>(p)); }
float loadBF16(const char *p) {
  return strata::rt::fromBF16(load<uint16_t>(p));
}

/// Prints the element at `p` as `Load` reads it, with its stream operator.
template <auto Load> void printElement(std::ostream &os, const char *p) {
  os << Load(p);
}

void printUnranked(const UnrankedMemRef *m, int64_t elementBytes,
                   void (*print)(std::ostream &, const char *)) {
  strata::rt::printMemRef(std::cout, "Unranked Memref ",
                          MemRefView::of(m->rank, m->descriptor), elementBytes,
                          print);
}

void printShape(const UnrankedMemRef *m) {
  std::cout << "Unranked Memref ";
  printMetadata(std::cout, MemRefView::of(m->rank, m->descriptor));
}

/// Visits every element offset of `view` in row-major order.
template <typename F> void forEachOffset(const MemRefView &view, F &&f) {
  int64_t n = view.numElements();
  std::vector<int64_t> index(size_t(view.rank), 0);
  for (int64_t linear = 0; linear < n; ++linear) {
    int64_t offset = view.offset;
    for (int64_t d = 0; d < view.rank; ++d)
      offset += index[size_t(d)] * view.strides[d];
    f(offset);
    for (int64_t d = view.rank - 1; d >= 0; --d) {
      if (++index[size_t(d)] < view.sizes[d])
        break;
      index[size_t(d)] = 0;
    }
  }
}

template <typename T> bool closeEnough(T actual, T expected) {
  if constexpr (std::is_floating_point_v<T>) {
    // Relative 1e-6 (f32 and f64 alike), absolute near zero.
    if (actual == expected || (std::isnan(actual) && std::isnan(expected)))
      return true;
    double diff = std::fabs(double(actual) - double(expected));
    return diff <= 1e-6 * std::max(1.0, std::fabs(double(expected)));
  } else {
    return actual == expected;
  }
}
template <typename T>
bool closeEnough(std::complex<T> actual, std::complex<T> expected) {
  return closeEnough(actual.real(), expected.real()) &&
         closeEnough(actual.imag(), expected.imag());
}

/// Number of elements of `actual` that differ from `expected` (each printed
/// to stderr), -1 when their shapes differ.
template <typename T>
int64_t verify(const UnrankedMemRef *actual, const UnrankedMemRef *expected,
               int64_t elementBytes, T (*load)(const char *)) {
  MemRefView a = MemRefView::of(actual->rank, actual->descriptor);
  MemRefView e = MemRefView::of(expected->rank, expected->descriptor);
  if (a.rank != e.rank ||
      !std::equal(a.sizes, a.sizes + a.rank, e.sizes, e.sizes + e.rank)) {
    std::cerr << "verifyMemRef: the shapes differ\n";
    return -1;
  }
  std::vector<int64_t> expectedOffsets;
  forEachOffset(e, [&](int64_t offset) { expectedOffsets.push_back(offset); });
  int64_t errors = 0, i = 0;
  forEachOffset(a, [&](int64_t offset) {
    T x = load(a.data + offset * elementBytes);
    T y = load(e.data + expectedOffsets[size_t(i++)] * elementBytes);
    if (!closeEnough(x, y)) {
      if (errors < 10)
        std::cerr << "verifyMemRef: element " << i - 1 << ": " << x
                  << " != " << y << "\n";
      ++errors;
    }
  });
  return errors;
}

} // namespace

void strata::rt::printMemRef(std::ostream &os, const char *prefix,
                             const MemRefView &view, int64_t elementBytes,
                             void (*print)(std::ostream &, const char *)) {
  os << prefix;
  printMetadata(os, view);
  os << " data = \n";
  if (view.rank == 0)
    os << "[";
  printDims(os, view, 0, view.offset, elementBytes, print);
  if (view.rank == 0)
    os << "]";
  os << '\n' << std::flush;
}

// Per element type: the unranked printers (with and without the C
// interface), the shape printer and the comparisons.
#define STRATA_MEMREF_FUNCTIONS(NAME, BYTES, LOAD)                             \
  STRATA_RUNNER_EXPORT void _mlir_ciface_printMemref##NAME(                    \
      UnrankedMemRef *m) {                                                     \
    printUnranked(m, BYTES, printElement<LOAD>);                               \
  }                                                                            \
  STRATA_RUNNER_EXPORT void printMemref##NAME(int64_t rank, void *ptr) {       \
    UnrankedMemRef m{rank, ptr};                                               \
    printUnranked(&m, BYTES, printElement<LOAD>);                              \
  }                                                                            \
  STRATA_RUNNER_EXPORT void _mlir_ciface_printMemrefShape##NAME(               \
      UnrankedMemRef *m) {                                                     \
    printShape(m);                                                             \
  }                                                                            \
  STRATA_RUNNER_EXPORT int64_t _mlir_ciface_verifyMemRef##NAME(                \
      UnrankedMemRef *actual, UnrankedMemRef *expected) {                      \
    return verify(actual, expected, BYTES, LOAD);                              \
  }                                                                            \
  STRATA_RUNNER_EXPORT int64_t verifyMemRef##NAME(                             \
      int64_t actualRank, void *actualPtr, int64_t expectedRank,               \
      void *expectedPtr) {                                                     \
    UnrankedMemRef a{actualRank, actualPtr}, e{expectedRank, expectedPtr};     \
    return verify(&a, &e, BYTES, LOAD);                                        \
  }

STRATA_MEMREF_FUNCTIONS(I8, 1, load<int8_t>)
STRATA_MEMREF_FUNCTIONS(I16, 2, load<int16_t>)
STRATA_MEMREF_FUNCTIONS(I32, 4, load<int32_t>)
STRATA_MEMREF_FUNCTIONS(I64, 8, load<int64_t>)
STRATA_MEMREF_FUNCTIONS(Ind, 8, load<int64_t>)
STRATA_MEMREF_FUNCTIONS(F16, 2, loadF16)
STRATA_MEMREF_FUNCTIONS(BF16, 2, loadBF16)
STRATA_MEMREF_FUNCTIONS(F32, 4, load<float>)
STRATA_MEMREF_FUNCTIONS(F64, 8, load<double>)
STRATA_MEMREF_FUNCTIONS(C32, 8, load<std::complex<float>>)
STRATA_MEMREF_FUNCTIONS(C64, 16, load<std::complex<double>>)
#undef STRATA_MEMREF_FUNCTIONS

// The ranked printers ("Memref " rather than "Unranked Memref ").
#define STRATA_PRINT_RANKED(NAME, T, RANK)                                     \
  STRATA_RUNNER_EXPORT void _mlir_ciface_printMemref##NAME(void *m) {          \
    strata::rt::printMemRef(std::cout, "Memref ", MemRefView::of(RANK, m),     \
                            sizeof(T), printElement<load<T>>);                 \
  }
STRATA_PRINT_RANKED(0dF32, float, 0)
STRATA_PRINT_RANKED(1dF32, float, 1)
STRATA_PRINT_RANKED(2dF32, float, 2)
STRATA_PRINT_RANKED(3dF32, float, 3)
STRATA_PRINT_RANKED(4dF32, float, 4)
STRATA_PRINT_RANKED(1dI8, int8_t, 1)
STRATA_PRINT_RANKED(1dI32, int32_t, 1)
STRATA_PRINT_RANKED(1dI64, int64_t, 1)
STRATA_PRINT_RANKED(1dC32, std::complex<float>, 1)
STRATA_PRINT_RANKED(1dC64, std::complex<double>, 1)
#undef STRATA_PRINT_RANKED

// Scalars and punctuation (what vector.print lowers to).
STRATA_RUNNER_EXPORT void printI64(int64_t i) { std::printf("%" PRId64, i); }
STRATA_RUNNER_EXPORT void printU64(uint64_t u) { std::printf("%" PRIu64, u); }
STRATA_RUNNER_EXPORT void printF64(double d) {
  if (std::isnan(d) && std::signbit(d))
    std::printf("-nan");
  else
    std::printf("%lg", d);
}
STRATA_RUNNER_EXPORT void printF32(float f) { printF64(double(f)); }
STRATA_RUNNER_EXPORT void printF16(uint16_t bits) {
  printF64(double(strata::rt::fromF16(bits)));
}
STRATA_RUNNER_EXPORT void printBF16(uint16_t bits) {
  printF64(double(strata::rt::fromBF16(bits)));
}
STRATA_RUNNER_EXPORT void printString(const char *s) { std::fputs(s, stdout); }
STRATA_RUNNER_EXPORT void printOpen() { std::fputs("( ", stdout); }
STRATA_RUNNER_EXPORT void printClose() { std::fputs(" )", stdout); }
STRATA_RUNNER_EXPORT void printComma() { std::fputs(", ", stdout); }
STRATA_RUNNER_EXPORT void printNewline() {
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

// Timing and random numbers.
STRATA_RUNNER_EXPORT void printFlops(double flops) {
  std::fprintf(stderr, "%lf GFLOPS\n", flops / 1.0e9);
}
STRATA_RUNNER_EXPORT double rtclock() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}
STRATA_RUNNER_EXPORT int64_t _mlir_ciface_nanoTime() {
  using namespace std::chrono;
  return duration_cast<nanoseconds>(steady_clock::now().time_since_epoch())
      .count();
}
STRATA_RUNNER_EXPORT void *rtsrand(uint64_t seed) {
  return new std::mt19937(uint32_t(seed));
}
STRATA_RUNNER_EXPORT uint64_t rtrand(void *generator, uint64_t max) {
  std::uniform_int_distribution<uint64_t> uniform(0, max);
  return uniform(*static_cast<std::mt19937 *>(generator));
}
STRATA_RUNNER_EXPORT void rtdrand(void *generator) {
  delete static_cast<std::mt19937 *>(generator);
}

// The result of an entry function, printed as mlir-runner prints it
// (strata-mlir-runner -entry-point-result=i32|i64|f32).
STRATA_RUNNER_EXPORT void _strata_runner_result_i32(int32_t value) {
  std::printf("%d\n", value);
}
STRATA_RUNNER_EXPORT void _strata_runner_result_i64(int64_t value) {
  std::printf("%" PRId64 "\n", value);
}
STRATA_RUNNER_EXPORT void _strata_runner_result_f32(float value) {
  std::printf("%e\n", double(value));
}

/// memref.copy between layouts the lowering cannot copy inline.
STRATA_RUNNER_EXPORT void memrefCopy(int64_t elementBytes, UnrankedMemRef *src,
                                     UnrankedMemRef *dst) {
  MemRefView from = MemRefView::of(src->rank, src->descriptor);
  MemRefView to = MemRefView::of(dst->rank, dst->descriptor);
  std::vector<int64_t> fromOffsets;
  forEachOffset(from, [&](int64_t offset) { fromOffsets.push_back(offset); });
  size_t i = 0;
  forEachOffset(to, [&](int64_t offset) {
    std::memmove(to.data + offset * elementBytes,
                 from.data + fromOffsets[i++] * elementBytes,
                 size_t(elementBytes));
  });
}
