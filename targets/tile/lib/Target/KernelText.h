//===- KernelText.h - Writing tile kernels as dialect text ------*- C++ -*-===//
//
// The S5 lowering writes each program in the tile dialect's own syntax (the
// form docs/tile-target.md documents and integration/lit/Tile holds by
// hand) and parses it into the module, where the dialect's verifier checks
// it against the chip. KernelText keeps the SSA names of one kernel: index
// constants are declared once at the top, values get fresh names.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TARGETS_TILE_KERNELTEXT_H
#define STRATA_TARGETS_TILE_KERNELTEXT_H

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdint>
#include <set>
#include <string>

namespace strata::tile {

/// An f32 immediate as the dialect's text takes it exactly: 0x then its
/// bits in hexadecimal.
inline std::string f32Immediate(float value) {
  return "0x" +
         llvm::utohexstr(llvm::APFloat(value).bitcastToAPInt().getZExtValue(),
                         /*LowerCase=*/false, 8);
}

class KernelText {
public:
  /// The name of index constant `value`.
  std::string c(int64_t value) {
    constants.insert(value);
    return "%c" + std::to_string(value);
  }
  /// Appends `op` (with the current indentation) and a newline.
  void line(const std::string &op) {
    body += std::string(2 * depth + 4, ' ') + op + "\n";
  }
  /// `%name = arith.<op> lhs, rhs : index`; returns the new name.
  std::string arith(llvm::StringRef op, const std::string &lhs,
                    const std::string &rhs) {
    std::string name = fresh();
    line(llvm::formatv("{0} = arith.{1} {2}, {3} : index", name, op, lhs, rhs));
    return name;
  }
  std::string add(const std::string &a, const std::string &b) {
    return arith("addi", a, b);
  }
  std::string mul(const std::string &a, const std::string &b) {
    return arith("muli", a, b);
  }
  /// `a * scale + offset` with constant scale and offset.
  std::string affine(const std::string &a, int64_t scale, int64_t offset) {
    std::string scaled = scale == 1 ? a : mul(a, c(scale));
    return offset == 0 ? scaled : add(scaled, c(offset));
  }
  std::string cmp(llvm::StringRef pred, const std::string &a,
                  const std::string &b) {
    std::string name = fresh();
    line(llvm::formatv("{0} = arith.cmpi {1}, {2}, {3} : index", name, pred, a,
                       b));
    return name;
  }
  /// A result-producing tile op (`%x = tile.core_row`).
  std::string value(const std::string &op) {
    std::string name = fresh();
    line(name + " = " + op);
    return name;
  }
  /// Opens `scf.for %iv = 0 to count`; returns the induction variable.
  std::string beginFor(int64_t count) {
    std::string iv = fresh();
    line(llvm::formatv("scf.for {0} = {1} to {2} step {3} {{", iv, c(0),
                       c(count), c(1)));
    ++depth;
    return iv;
  }
  /// Opens `scf.for %iv = 0 to upper` with a computed bound.
  std::string beginForTo(const std::string &upper) {
    std::string iv = fresh();
    line(llvm::formatv("scf.for {0} = {1} to {2} step {3} {{", iv, c(0), upper,
                       c(1)));
    ++depth;
    return iv;
  }
  void beginIf(const std::string &cond) {
    line("scf.if " + cond + " {");
    ++depth;
  }
  void orElse() {
    --depth;
    line("} else {");
    ++depth;
  }
  void end() {
    --depth;
    line("}");
  }
  /// The kernel: its header, the constants, then the body.
  std::string str(const std::string &header) const {
    std::string text = "  " + header + " {\n";
    for (int64_t value : constants)
      text += llvm::formatv("    %c{0} = arith.constant {0} : index\n", value);
    return text + body + "  }\n";
  }

private:
  std::string fresh() { return "%v" + std::to_string(next++); }
  std::set<int64_t> constants;
  std::string body;
  int depth = 0;
  int next = 0;
};

} // namespace strata::tile

#endif // STRATA_TARGETS_TILE_KERNELTEXT_H
