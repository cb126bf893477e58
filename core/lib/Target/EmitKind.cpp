//===- EmitKind.cpp - The --emit stages -----------------------------------===//
#include "strata/Target/TargetPlugin.h"

using namespace strata;

namespace {
struct EmitName {
  EmitKind kind;
  const char *name;
};
constexpr EmitName kEmitNames[] = {
    {EmitKind::Mapped, "mlir"}, {EmitKind::Lowered, "lowered"},
    {EmitKind::LLVMIR, "llvm"}, {EmitKind::Object, "obj"},
    {EmitKind::Library, "lib"},
};
} // namespace

std::optional<EmitKind> strata::parseEmitKind(llvm::StringRef text) {
  for (const EmitName &entry : kEmitNames)
    if (text == entry.name)
      return entry.kind;
  return std::nullopt;
}

llvm::StringRef strata::emitKindName(EmitKind kind) {
  for (const EmitName &entry : kEmitNames)
    if (entry.kind == kind)
      return entry.name;
  return "?";
}
