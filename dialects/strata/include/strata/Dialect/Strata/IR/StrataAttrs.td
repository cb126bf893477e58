//===- StrataAttrs.td - Attributes of the strata dialect ---*- tablegen -*-===//
#ifndef STRATA_DIALECT_STRATA_ATTRS
#define STRATA_DIALECT_STRATA_ATTRS

include "strata/Dialect/Strata/IR/StrataBase.td"
include "mlir/Dialect/SCF/IR/DeviceMappingInterface.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

class Strata_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Strata_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Strata_HardwareAttr : Strata_Attr<"Hardware", "hw"> {
  let summary = "The hardware description of the chip a module targets";
  let description = [{
    The whole JSON hardware description as a dictionary (objects become
    dictionaries, arrays become arrays, numbers become i64 or f64), so that IR
    is self-describing and a test can inject any chip:

    ```mlir
    module attributes {strata.hw = #strata.hw<"tile-wormhole-n150",
                                              {name = "tile-wormhole-n150", ...}>}
    ```
    The name must equal the description's `name` field; the description must
    name its `plugin`.
  }];
  let parameters = (ins StringRefParameter<"chip name">:$name,
                        "::mlir::DictionaryAttr":$description);
  let assemblyFormat = "`<` $name `,` $description `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The `plugin` field of the description.
    ::llvm::StringRef getPlugin() const;
  }];
}

def Strata_GridAttr : Strata_Attr<"Grid", "grid",
    [DeclareAttrInterfaceMethods<DeviceMappingAttrInterface>]> {
  let summary = "Maps an scf.forall dimension to a compute level";
  let description = [{
    `#strata.grid<"core">` maps a loop dimension to the instances of the
    description's compute level `core`; a second dimension over the same level
    is `#strata.grid<"core", 1>`.
  }];
  let parameters = (ins StringRefParameter<"compute level">:$level,
                        DefaultValuedParameter<"int64_t", "0">:$dim);
  let assemblyFormat = "`<` $level (`,` $dim^)? `>`";
  let genVerifyDecl = 1;
}

def Strata_MemAttr : Strata_Attr<"Mem", "mem"> {
  let summary = "A memref memory space naming a memory level";
  let description = [{
    `memref<64x64xf32, #strata.mem<"l1">>` lives in the description's memory
    level `l1`. Copies between levels are explicit.
  }];
  let parameters = (ins StringRefParameter<"memory level">:$level);
  let assemblyFormat = "`<` $level `>`";
  let genVerifyDecl = 1;
}

def Strata_ScheduleAttr : Strata_Attr<"Schedule", "schedule"> {
  let summary = "The schedule S3 chose for one structured op";
  let description = [{
    Plain data over the op's loops (docs/architecture.md, "Schedules"): the
    split over a compute level, tile sizes per memory level and their loop
    order, packed operands, the register tile and the vectorized loop, plus
    the model's reasoning (bound, predicted time, footprints per level):

    ```mlir
    linalg.matmul {strata.schedule = #strata.schedule<{kind = "contraction",
        register = [6, 64, 1], vector_dim = 1, ...}>} ins(...) outs(...)
    ```
    S4 (strata-apply-schedule) applies it; `--schedule=FILE.json` replaces it.
  }];
  let parameters = (ins "::mlir::DictionaryAttr":$fields);
  let assemblyFormat = "`<` $fields `>`";
}

#endif // STRATA_DIALECT_STRATA_ATTRS
