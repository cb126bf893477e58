//===- Validator.h - Checks of a hardware description -----------*- C++ -*-===//
//
// The validator behind loadDescriptionJson and the helpers its checks share.
// Every check reports a Diagnostic with the JSON pointer of the offending
// value and a message saying what was expected; validation goes on after an
// error so that one run lists every problem of a document.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_LIB_HW_VALIDATOR_H
#define STRATA_LIB_HW_VALIDATOR_H

#include "strata/HW/Description.h"

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace strata::hw::detail {

using json = nlohmann::json;

/// Documents nesting deeper than this are rejected before anything copies or
/// walks them recursively.
inline constexpr int kMaxDepth = 64;
/// Largest number of instances of any compute level (product of counts).
inline constexpr int64_t kMaxUnits = int64_t(1) << 53;

/// `token` escaped for use in a JSON pointer ("~" -> "~0", "/" -> "~1").
std::string pointerToken(llvm::StringRef token);

std::string childPath(const std::string &path, llvm::StringRef key);
std::string childPath(const std::string &path, size_t index);

/// A short rendering of a value for messages.
std::string describe(const json &value);

std::string joinQuoted(const std::vector<std::string> &names);

/// " (did you mean "x"?)" when one of `candidates` is close to `word`.
std::string suggestion(llvm::StringRef word,
                       const std::vector<std::string> &candidates);

inline bool isExtensionKey(llvm::StringRef key) {
  return key.starts_with("x-") || key.starts_with("_comment");
}

inline bool isPowerOfTwo(int64_t value) {
  return value > 0 && (value & (value - 1)) == 0;
}

/// Level, memory and intrinsic names: [A-Za-z0-9_.-]+.
bool isIdentifier(llvm::StringRef name);

/// The description's own name: [a-z0-9-]+.
bool isDescriptionName(llvm::StringRef name);

/// True if `value` nests at most `depthLeft` levels of arrays and objects.
bool withinDepth(const json &value, int depthLeft);

enum class Bound { Positive, NonNegative };

class Validator {
public:
  explicit Validator(const LoadOptions &options) : options(options) {}

  std::vector<Diagnostic> errors;

  void error(std::string path, std::string message) {
    errors.push_back({std::move(path), std::move(message), 0, 0});
  }

  /// The member `key` of `obj`, or nullptr; a missing required member is an
  /// error that says what was expected there.
  const json *member(const json &obj, const std::string &path,
                     llvm::StringRef key, bool required,
                     llvm::StringRef expected);

  std::optional<std::string> string(const json &obj, const std::string &path,
                                    llvm::StringRef key, bool required);

  /// A non-empty string naming something: a level, a memory, an intrinsic.
  std::optional<std::string> identifier(const json &obj,
                                        const std::string &path,
                                        llvm::StringRef key, bool required);

  std::optional<double> number(const json &obj, const std::string &path,
                               llvm::StringRef key, bool required, Bound bound);

  std::optional<int64_t> integer(const json &obj, const std::string &path,
                                 llvm::StringRef key, bool required,
                                 int64_t min);

  /// The value as an int64 when it is a number with an integral value in
  /// range (JSON writers may print 4.194304e7 for an integer).
  static std::optional<int64_t> asInteger(const json &value);

  /// Report members of `obj` not in `allowed` (extension keys excepted).
  void checkKeys(const json &obj, const std::string &path,
                 const std::vector<std::string> &allowed);

  bool expectObject(const json &value, const std::string &path,
                    llvm::StringRef what);

  /// A compute level named by another field.
  std::optional<std::string>
  computeRef(const json &obj, const std::string &path, llvm::StringRef key);

  std::optional<std::string>
  elementType(const json &obj, const std::string &path, llvm::StringRef key);

  bool checkElementType(const std::string &type, const std::string &path);

  /// Report `name` at `path` if an earlier entry of `seen` has it; true if
  /// the name is new.
  bool checkUnique(std::map<std::string, std::string> &seen,
                   const std::string &name, const std::string &path,
                   llvm::StringRef what);

  void validate(const json &doc, Description &desc);

private:
  void validateCompute(const json &doc, Description &desc);
  void validateMemory(const json &doc, Description &desc);
  std::optional<MovementEngine> validateEngine(const json &value,
                                               const std::string &path);
  void validateVector(const json &doc, Description &desc);
  void validateMatrix(const json &doc, Description &desc);
  std::optional<MatrixIntrinsic> validateIntrinsic(const json &value,
                                                   const std::string &path);
  void checkAccumulator(const Description &desc,
                        const MatrixIntrinsic &intrinsic,
                        const std::string &path);
  void validateLayout(const json &layout, const std::string &path,
                      const MatrixIntrinsic &intrinsic, bool shapeKnown);
  void validatePeaks(const json &doc, Description &desc);
  void crossCheckPeaks(const Description &desc);

  const LoadOptions &options;
  std::vector<std::string> computeNames; // distinct level names, even if bad
  std::map<std::string, std::string> intrinsicNames;
};

} // namespace strata::hw::detail

#endif // STRATA_LIB_HW_VALIDATOR_H
