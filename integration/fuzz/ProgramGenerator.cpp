//===- ProgramGenerator.cpp - Bytes to a valid tensor program -------------===//
#include "ProgramGenerator.h"

#include "llvm/Support/FormatVariadic.h"

#include <vector>

using namespace strata::fuzz;
using llvm::formatv;

namespace {

const int64_t kSizes[] = {1,  2,  3,  5,  7,  8,  16,  17,
                          31, 32, 33, 63, 64, 65, 100, 128};

struct Value {
  std::string name;
  int64_t rows, cols;
};

class Builder {
public:
  explicit Builder(ByteReader &bytes) : bytes(bytes) {}

  std::string build() {
    Value v = argument(size(), size(), "f32");
    unsigned steps = 1 + bytes.next(5);
    for (unsigned i = 0; i < steps; ++i)
      v = step(v);
    std::string args;
    for (size_t i = 0; i < argTypes.size(); ++i)
      args += formatv("{0}%arg{1}: {2}", i ? ", " : "", i, argTypes[i]).str();
    return formatv("func.func @fuzz({0}) -> {1} {{\n{2}  return {3} : {1}\n}\n",
                   args, type(v), body, v.name)
        .str();
  }

private:
  int64_t size() { return kSizes[bytes.next(std::size(kSizes))]; }
  static std::string type(int64_t r, int64_t c, const char *elt = "f32") {
    return formatv("tensor<{0}x{1}x{2}>", r, c, elt).str();
  }
  static std::string type(const Value &v) { return type(v.rows, v.cols); }
  std::string fresh() { return formatv("%v{0}", counter++).str(); }
  Value argument(int64_t r, int64_t c, const char *elt) {
    argTypes.push_back(type(r, c, elt));
    return {formatv("%arg{0}", argTypes.size() - 1).str(), r, c};
  }
  std::string empty(int64_t r, int64_t c) {
    std::string e = fresh();
    body += formatv("  {0} = tensor.empty() : {1}\n", e, type(r, c));
    return e;
  }
  std::string zeroFilled(int64_t r, int64_t c, const char *value = "0.0") {
    std::string e = empty(r, c), z = fresh(), f = fresh();
    body += formatv("  {0} = arith.constant {1} : f32\n", z, value);
    body += formatv("  {0} = linalg.fill ins({1} : f32) outs({2} : {3}) -> "
                    "{3}\n",
                    f, z, e, type(r, c));
    return f;
  }

  Value step(const Value &v) {
    switch (bytes.next(6)) {
    case 0:
      return unary(v);
    case 1:
      return binary(v);
    case 2:
      return matmul(v);
    case 3:
      return rowReduction(v);
    case 4:
      return transpose(v);
    default:
      return softmax(v);
    }
  }

  /// An elementwise body of 1-3 ops; some use their operand twice.
  Value unary(const Value &v) {
    static const char *ops[] = {
        "%y = math.exp %x : f32",
        "%y = math.tanh %x : f32",
        "%y = arith.negf %x : f32",
        "%t = math.absf %x : f32\n    %y = math.sqrt %t : f32",
        "%c = arith.constant 0.5 : f32\n    %y = arith.mulf %x, %c : f32",
        "%y = arith.mulf %x, %x : f32",
        "%c = arith.constant 0.0 : f32\n    %y = arith.maximumf %x, %c : f32",
        ("%c = arith.constant 1.0 : f32\n    %t = arith.addf %x, %c : f32\n"
         "    %y = arith.mulf %t, %x : f32"),
    };
    std::string text;
    unsigned n = 1 + bytes.next(3);
    for (unsigned i = 0; i < n; ++i) {
      std::string op = ops[bytes.next(std::size(ops))];
      // Chain: the op reads %x; rename its result for the next one.
      std::string in = i ? formatv("%y{0}", i - 1).str() : "%in";
      std::string out = formatv("%y{0}", i).str();
      op = replace(replace(replace(op, "%y", out), "%x", in), "%t",
                   formatv("%t{0}", i).str());
      op = replace(op, "%c", formatv("%c{0}", i).str());
      text += "    " + op + "\n";
    }
    Value r{fresh(), v.rows, v.cols};
    std::string e = empty(v.rows, v.cols);
    body += formatv("  {0} = linalg.generic {{indexing_maps = [{1}, {1}], "
                    "iterator_types = [\"parallel\", \"parallel\"]} ins({2} : "
                    "{3}) outs({4} : {3}) {{\n  ^bb0(%in: f32, %o: f32):\n{5}"
                    "    linalg.yield %y{6} : f32\n  } -> {3}\n",
                    r.name, "affine_map<(i, j) -> (i, j)>", v.name, type(v), e,
                    text, n - 1);
    return r;
  }

  /// v op w, w of the same shape, a row [cols] or a column [rows].
  Value binary(const Value &v) {
    static const char *ops[] = {"addf", "subf", "mulf", "maximumf", "minimumf"};
    const char *op = ops[bytes.next(std::size(ops))];
    unsigned form = bytes.next(3);
    std::string wType, wMap;
    Value w;
    if (form == 0) {
      w = argument(v.rows, v.cols, "f32");
      wType = type(v), wMap = "affine_map<(i, j) -> (i, j)>";
    } else {
      int64_t n = form == 1 ? v.cols : v.rows;
      argTypes.push_back(formatv("tensor<{0}xf32>", n).str());
      w = {formatv("%arg{0}", argTypes.size() - 1).str(), n, 1};
      wType = argTypes.back();
      wMap =
          form == 1 ? "affine_map<(i, j) -> (j)>" : "affine_map<(i, j) -> (i)>";
    }
    Value r{fresh(), v.rows, v.cols};
    std::string e = empty(v.rows, v.cols);
    body += formatv(
        "  {0} = linalg.generic {{indexing_maps = [{1}, {2}, {1}], "
        "iterator_types = [\"parallel\", \"parallel\"]} ins({3}, {4} : {5}, "
        "{6}) outs({7} : {5}) {{\n  ^bb0(%a: f32, %b: f32, %o: f32):\n"
        "    %y = arith.{8} %a, %b : f32\n    linalg.yield %y : f32\n  } -> "
        "{5}\n",
        r.name, "affine_map<(i, j) -> (i, j)>", wMap, v.name, w.name, type(v),
        wType, e, op);
    return r;
  }

  /// v [r x c] times a new [c x n] operand; bf16 operands half the time.
  Value matmul(const Value &v) {
    int64_t n = size();
    bool bf16 = bytes.next(2);
    std::string a = v.name;
    if (bf16) {
      std::string e = fresh(), t = fresh();
      body += formatv("  {0} = tensor.empty() : {1}\n", e,
                      type(v.rows, v.cols, "bf16"));
      body += formatv(
          "  {0} = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, "
          "j)>, affine_map<(i, j) -> (i, j)>], iterator_types = "
          "[\"parallel\", \"parallel\"]} ins({1} : {2}) outs({3} : {4}) {{\n"
          "  ^bb0(%a: f32, %o: bf16):\n    %y = arith.truncf %a : f32 to "
          "bf16\n    linalg.yield %y : bf16\n  } -> {4}\n",
          t, v.name, type(v), e, type(v.rows, v.cols, "bf16"));
      a = t;
    }
    const char *elt = bf16 ? "bf16" : "f32";
    Value w = argument(v.cols, n, elt);
    std::string init = zeroFilled(v.rows, n);
    Value r{fresh(), v.rows, n};
    body += formatv("  {0} = linalg.matmul ins({1}, {2} : {3}, {4}) outs({5} "
                    ": {6}) -> {6}\n",
                    r.name, a, w.name, type(v.rows, v.cols, elt),
                    type(v.cols, n, elt), init, type(r));
    return r;
  }

  /// The row sums or maxima, broadcast back and combined with v.
  Value rowReduction(const Value &v) {
    bool max = bytes.next(2);
    std::string rowType = formatv("tensor<{0}xf32>", v.rows).str();
    std::string e = fresh(), z = fresh(), f = fresh(), red = fresh();
    body += formatv("  {0} = tensor.empty() : {1}\n", e, rowType);
    body += formatv("  {0} = arith.constant {1} : f32\n", z,
                    max ? "-3.0e38" : "0.0");
    body += formatv("  {0} = linalg.fill ins({1} : f32) outs({2} : {3}) -> "
                    "{3}\n",
                    f, z, e, rowType);
    body += formatv(
        "  {0} = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, "
        "j)>, affine_map<(i, j) -> (i)>], iterator_types = [\"parallel\", "
        "\"reduction\"]} ins({1} : {2}) outs({3} : {4}) {{\n  ^bb0(%a: f32, "
        "%acc: f32):\n    %y = arith.{5} %a, %acc : f32\n    linalg.yield %y "
        ": f32\n  } -> {4}\n",
        red, v.name, type(v), f, rowType, max ? "maximumf" : "addf");
    Value r{fresh(), v.rows, v.cols};
    std::string out = empty(v.rows, v.cols);
    body += formatv(
        "  {0} = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, "
        "j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], "
        "iterator_types = [\"parallel\", \"parallel\"]} ins({1}, {2} : {3}, "
        "{4}) outs({5} : {3}) {{\n  ^bb0(%a: f32, %b: f32, %o: f32):\n    %y "
        "= arith.subf %a, %b : f32\n    linalg.yield %y : f32\n  } -> {3}\n",
        r.name, v.name, red, type(v), rowType, out);
    return r;
  }

  Value transpose(const Value &v) {
    Value r{fresh(), v.cols, v.rows};
    std::string e = empty(v.cols, v.rows);
    body += formatv("  {0} = linalg.transpose ins({1} : {2}) outs({3} : {4}) "
                    "permutation = [1, 0]\n",
                    r.name, v.name, type(v), e, type(r));
    return r;
  }

  Value softmax(const Value &v) {
    Value r{fresh(), v.rows, v.cols};
    std::string e = empty(v.rows, v.cols);
    body += formatv("  {0} = linalg.softmax dimension({1}) ins({2} : {3}) "
                    "outs({4} : {3}) -> {3}\n",
                    r.name, bytes.next(2), v.name, type(v), e);
    return r;
  }

  static std::string replace(std::string s, const std::string &from,
                             const std::string &to) {
    for (size_t at = s.find(from); at != std::string::npos;
         at = s.find(from, at + to.size()))
      s.replace(at, from.size(), to);
    return s;
  }

  ByteReader &bytes;
  std::vector<std::string> argTypes;
  std::string body;
  int counter = 0;
};

} // namespace

std::string strata::fuzz::generateProgram(ByteReader &bytes) {
  return Builder(bytes).build();
}
