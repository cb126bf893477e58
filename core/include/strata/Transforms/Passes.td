//===- Passes.td - Strata's core passes --------------------*- tablegen -*-===//
#ifndef STRATA_TRANSFORMS_PASSES
#define STRATA_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def StrataAttachTarget : Pass<"strata-attach-target", "::mlir::ModuleOp"> {
  let summary = "Attach a chip's hardware description to the module";
  let description = [{
    Resolves `target` (a shipped description's name, a path to a .json file,
    or `host`), validates it and attaches it as `strata.hw`, so that every
    later stage reads the chip from the IR:

    ```mlir
    module {}
    // --strata-attach-target=target=mychip.json ->
    module attributes {strata.hw = #strata.hw<"mychip", {...}>} {}
    ```
  }];
  let options = [Option<"target", "target", "std::string", "\"\"",
                        "Description name, .json path, or 'host'">];
}

def StrataPrintTarget : Pass<"strata-print-target", "::mlir::ModuleOp"> {
  let summary = "Print the derived model of the module's description";
  let description = [{
    Reads `strata.hw` back from the IR, validates it again and prints the
    derived model (peaks, bandwidths, balance) to stdout. Fails when the
    module carries no description or an invalid one.
  }];
}

def StrataCheckInput : Pass<"strata-check-input", "::mlir::ModuleOp"> {
  let summary = "Reject ops that no stage of the pipeline handles";
  let description = [{
    The input of Strata is linalg/tosa/tensor/arith/math on tensors (plus
    func, scf, affine, bufferization and memref). Any other op is reported at
    its location with the dialects accepted, before any stage runs:

    ```
    model.mlir:4:8: error: 'gpu.launch' is not accepted as input; expected
    ops of: affine, arith, bufferization, ...
    ```
  }];
}

def StrataDecomposeAggregates : Pass<"strata-decompose-aggregates"> {
  let summary = "Decompose aggregate linalg ops (softmax) into generics";
  let description = [{
    Applies each op's AggregatedOpInterface decomposition, e.g. `linalg.softmax`
    becomes max-reduce, sub+exp, sum-reduce and divide `linalg.generic` ops
    that the rest of the pipeline tiles, fuses and vectorizes.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

def StrataPrepareEntryPoints
    : Pass<"strata-prepare-entry-points", "::mlir::ModuleOp"> {
  let summary = "Make public functions safe for destination passing";
  let description = [{
    Before bufferization of the public functions (the library ABI):

    - every tensor argument is marked `bufferization.writable = false`, so
      the compiled code never writes into a caller's input buffer;
    - a value returned more than once is copied for each extra occurrence, so
      every output argument receives its own buffer:

    ```mlir
    return %x, %x : tensor<4xf32>, tensor<4xf32>
    // ->
    %e = tensor.empty() : tensor<4xf32>
    %c = linalg.copy ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    return %x, %c : tensor<4xf32>, tensor<4xf32>
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::bufferization::BufferizationDialect"];
}

def StrataApproximateMath : Pass<"strata-approximate-math"> {
  let summary = "Replace f32 transcendental math by polynomial approximations";
  let description = [{
    `math.exp`, `math.tanh`, `math.erf`, `math.log` and their kin on f32
    (scalars and vectors) become polynomial approximations built of arith
    ops, which vectorize, instead of calls to scalar libm. A bandwidth-bound
    softmax or GELU needs a vector exp/erf to keep up with memory. Other
    element types are left alone.

    ```mlir
    %y = math.exp %x : vector<16xf32>
    // -> arith.mulf / arith.addf / bit manipulation on vector<16xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def StrataHoistVectorTransfers : Pass<"strata-hoist-vector-transfers"> {
  let summary = "Keep loop-invariant vector transfers in registers";
  let description = [{
    A `vector.transfer_read`/`transfer_write` pair on the same buffer and
    indices inside an `scf.for` (an accumulator, typically) moves out of the
    loop and the value travels through `iter_args` instead of memory. Distinct
    buffers are assumed not to overlap, as the library ABI requires
    (docs/abi.md); loops must run at least once.

    ```mlir
    scf.for %k = %c0 to %c512 step %c1 {
      %acc = vector.transfer_read %C[%i, %j] ...
      ...
      vector.transfer_write %new, %C[%i, %j] ...
    }
    // ->
    %acc0 = vector.transfer_read %C[%i, %j] ...
    %r = scf.for %k = ... iter_args(%acc = %acc0) { ... scf.yield %new }
    vector.transfer_write %r, %C[%i, %j] ...
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def StrataVerifyDestinationPassing
    : Pass<"strata-verify-destination-passing", "::mlir::ModuleOp"> {
  let summary = "Check that public functions return nothing after bufferization";
  let description = [{
    The library ABI passes every result as a trailing output argument. A
    public function that still returns values after bufferization (a dynamic
    result shape, say) would make callers read garbage, so it is reported at
    the function instead of being compiled:

    ```
    error: result #0 has a dynamic shape ('memref<?xf32>'); results must have
    static shapes to be passed as output arguments
    ```
  }];
}

def StrataEmitCInterface : Pass<"strata-emit-c-interface", "::mlir::ModuleOp"> {
  let summary = "Export public functions with MLIR's C interface";
  let description = [{
    Marks every public `func.func` with `llvm.emit_c_interface`, so the
    artifact exports `_mlir_ciface_<name>` taking memref descriptors by
    pointer (the library ABI, docs/abi.md).
  }];
}

#endif // STRATA_TRANSFORMS_PASSES
