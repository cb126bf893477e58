//===- StrataBase.td - The strata dialect ------------------*- tablegen -*-===//
#ifndef STRATA_DIALECT_STRATA_BASE
#define STRATA_DIALECT_STRATA_BASE

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Strata_Dialect : Dialect {
  let name = "strata";
  let cppNamespace = "::strata";
  let summary = "Core attributes of Strata's mapped IR";
  let description = [{
    The `strata` dialect carries the contract between Strata's
    target-independent core and its target plugins:

    - `#strata.hw<...>`: the hardware description of the chip being compiled
      for, attached to the module as `strata.hw`;
    - `#strata.grid<"level">`: an `scf.forall` mapping to a level of the
      description's compute hierarchy;
    - `#strata.mem<"level">`: a `memref` memory space naming a level of the
      description's memory hierarchy.

    When a module carries `strata.hw`, every grid and memory level used in it
    must exist in that description.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Name of the module attribute holding the hardware description.
    static constexpr ::llvm::StringLiteral kHardwareAttrName = "strata.hw";
  }];
}

#endif // STRATA_DIALECT_STRATA_BASE
