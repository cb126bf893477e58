//===- Reference.cpp - What a tile program should compute -----------------===//
#include "Reference.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace strata::tile;

llvm::StringRef strata::tile::referenceNames() {
  return "matmul, add, softmax";
}

static llvm::Error shapeError(llvm::StringRef name, const std::string &what) {
  return llvm::createStringError(
      llvm::formatv("reference '{0}': {1}", name, what).str());
}

llvm::Expected<Matrix>
strata::tile::computeReference(llvm::StringRef name,
                               const std::vector<Matrix> &inputs,
                               int64_t outRows, int64_t outCols) {
  Matrix out;
  out.rows = outRows;
  out.cols = outCols;
  out.values.assign(outRows * outCols, 0.0);
  if (name == "matmul") {
    if (inputs.size() != 2)
      return shapeError(name, "expected two inputs (a, b)");
    const Matrix &a = inputs[0], &b = inputs[1];
    if (a.cols != b.rows || a.rows != outRows || b.cols != outCols)
      return shapeError(name, llvm::formatv("a {0}x{1} times b {2}x{3} does "
                                            "not give the output {4}x{5}",
                                            a.rows, a.cols, b.rows, b.cols,
                                            outRows, outCols)
                                  .str());
    for (int64_t i = 0; i < a.rows; ++i)
      for (int64_t k = 0; k < a.cols; ++k) {
        double aik = a.values[i * a.cols + k];
        for (int64_t j = 0; j < b.cols; ++j)
          out.values[i * outCols + j] += aik * b.values[k * b.cols + j];
      }
    return out;
  }
  if (name == "add") {
    if (inputs.size() != 2)
      return shapeError(name, "expected two inputs (a, b)");
    for (const Matrix &m : inputs)
      if (m.rows != outRows || m.cols != outCols)
        return shapeError(name, "inputs and output must have one shape");
    for (size_t i = 0; i < out.values.size(); ++i)
      out.values[i] = inputs[0].values[i] + inputs[1].values[i];
    return out;
  }
  if (name == "softmax") {
    if (inputs.size() != 1)
      return shapeError(name, "expected one input");
    const Matrix &a = inputs[0];
    if (a.rows != outRows || a.cols != outCols)
      return shapeError(name, "input and output must have one shape");
    for (int64_t r = 0; r < a.rows; ++r) {
      const double *row = &a.values[r * a.cols];
      double max = *std::max_element(row, row + a.cols), sum = 0;
      for (int64_t c = 0; c < a.cols; ++c)
        sum += std::exp(row[c] - max);
      for (int64_t c = 0; c < a.cols; ++c)
        out.values[r * a.cols + c] = std::exp(row[c] - max) / sum;
    }
    return out;
  }
  return llvm::createStringError(
      ("unknown reference '" + name + "': expected one of " + referenceNames())
          .str());
}
