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
    that the rest of the pipeline tiles, fuses and vectorizes. A
    `linalg.pack` becomes a pad, a reshape and a transpose, a `linalg.unpack`
    a transpose, a reshape and a slice (neither bufferizes as it is).
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

def StrataOutlineGroups : Pass<"strata-outline-groups", "::mlir::ModuleOp"> {
  let summary = "Outline each top-level loop nest into a function of its own";
  let description = [{
    One-Shot Bufferize and empty-tensor elimination analyse a function as a
    whole, and their cost grows faster than the function: a whole network
    scheduled into one function of a hundred loop nests spends most of its
    compile time there. Before bufferization, each top-level op with regions
    or a destination (a scheduled loop nest, a pad, a copy) of a function
    with at least `min-groups` of them becomes a private function marked
    `strata.group`, called in its place, so that each analysis sees one
    group. `strata-inline-groups` puts the bodies back after bufferization.

    The views, empty tensors and scalar constants a group reads are cloned
    into it, so that its arguments are whole buffers (identity layouts at
    the function boundary, no copies), and a group whose only use is an
    insert into a larger tensor takes that insert along, so that it still
    writes into the larger buffer in place:

    ```mlir
    %s = tensor.extract_slice %x[0, 1] [4, 4] [1, 1] : ...
    %r = scf.forall ... shared_outs(%o = %e) { ... reads %s ... }
    // ->
    %r = call @forward_group3(%x) : (tensor<8x8xf32>) -> tensor<4x4xf32>
    ```
  }];
  let options = [Option<"minGroups", "min-groups", "unsigned", "16",
                        "Outline only functions with this many groups">];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def StrataInlineGroups : Pass<"strata-inline-groups", "::mlir::ModuleOp"> {
  let summary = "Inline the functions of strata-outline-groups back";
  let description = [{
    After bufferization, every call of a function marked `strata.group` is
    replaced by the function's body and the function is erased, so that the
    passes after bufferization see the function as it was scheduled.
  }];
}

def StrataWidenFloats : Pass<"strata-widen-floats", "::mlir::func::FuncOp"> {
  let summary = "Compute bf16/f16 in f32, or f32 in f64 (the accurate host reference)";
  let description = [{
    The reference that `strata-run --check` compares a target with must be
    more accurate than the code under test: computed in bf16, a softmax's row
    sums alone are off by percents. Inside the function every bf16/f16 value
    (tensors, scalars, block arguments of linalg/scf bodies, constants)
    becomes f32; narrow arguments are extended right after entry and narrow
    results truncated at the return, so the signature (the library ABI) is
    unchanged. `arith.extf`/`arith.truncf` that become f32 to f32 disappear.
    Run on linalg/tensor/arith/math/scf after the prepare stage; an op that
    cannot be widened (a bitcast, a call, a memref, another dialect) is an
    error rather than a silently narrow reference.

    With `f64`, f32 is computed in f64 the same way, so that a reference
    sum of millions of f32 values (one rounding per element, in sequence)
    is not less accurate than the blocked sums it checks. This is best
    effort: a function with an op that cannot be widened stays in f32.

    ```mlir
    func.func @f(%x: tensor<8xbf16>) -> tensor<8xbf16> {
      %e = tensor.empty() : tensor<8xbf16>
      %y = linalg.exp ins(%x : tensor<8xbf16>) outs(%e : tensor<8xbf16>) -> tensor<8xbf16>
      return %y : tensor<8xbf16>
    }
    // ->
    %xw = linalg.generic ... ins(%x : tensor<8xbf16>) ... arith.extf ... -> tensor<8xf32>
    %e = tensor.empty() : tensor<8xf32>
    %y = linalg.exp ins(%xw : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %yn = linalg.generic ... ins(%y : tensor<8xf32>) ... arith.truncf ... -> tensor<8xbf16>
    return %yn : tensor<8xbf16>
    ```
  }];
  let options = [
    Option<"f64", "f64", "bool", /*default=*/"false",
           "Compute f32 (and bf16/f16) in f64; functions that cannot be are left as they are">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def StrataApproximateMath : Pass<"strata-approximate-math"> {
  let summary = "Replace f32 transcendental math by polynomial approximations";
  let description = [{
    `math.exp`, `math.tanh`, `math.erf`, `math.log` and their kin on f32
    (scalars and vectors) become polynomial approximations built of arith
    ops, which vectorize, instead of calls to scalar libm. A bandwidth-bound
    softmax or GELU needs a vector exp/erf to keep up with memory. Other
    element types are left alone. sin and cos reduce their argument with
    f32 arithmetic, accurate while |x| is small: when any lane of a vector
    (or the scalar) exceeds 8192 in magnitude, that vector is computed by
    f64 libm calls instead (a sin of 1e12 came out as 1e24).

    ```mlir
    %y = math.exp %x : vector<16xf32>
    // -> arith.mulf / arith.addf / bit manipulation on vector<16xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
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

def StrataResultsInPlace
    : Pass<"strata-results-in-place", "::mlir::func::FuncOp"> {
  let summary = "Compute reshaped results in the caller's output buffer";
  let description = [{
    After `buffer-results-to-out-params`, a result that is a reshaped view of
    a buffer the function allocates (a 1x1 convolution computed as a GEMM of
    collapsed rows and expanded back) is copied into the output argument.
    When the allocation is used only before that copy, it becomes the
    inverse reshape of the output argument and the copy is dropped.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
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

def StrataHostAllocator : Pass<"strata-host-allocator", "::mlir::ModuleOp"> {
  let summary = "Temporaries through an allocator the loader may replace";
  let description = [{
    On a module lowered by `finalize-memref-to-llvm{use-generic-functions=
    true}`: defines `_mlir_memref_to_llvm_alloc` and `_mlir_memref_to_llvm_free`
    (internal) to call the hooks set by the exported
    `strata_set_host_allocator(alloc, free)`, and `malloc`/`free` while none
    is set. The runtime installs an allocator that keeps freed temporaries
    for the next call (docs/runtime.md), so that a program called in a loop
    does not page-fault on fresh memory every call.
  }];
}

def StrataSchedule : Pass<"strata-schedule", "::mlir::ModuleOp"> {
  let summary = "S3: choose a schedule for every structured op from the chip";
  let description = [{
    Reads the module's `strata.hw` description and attaches to every linalg
    op on tensors a `strata.schedule` attribute chosen by the analytical model
    (Schedule/Model.h): register tile, cache tiles per memory level, packed
    operands, vector loop and width, the split over the vector units' compute
    level. With `schedule-file`, a JSON file replaces the model's choice for
    the ops it names: `{"<function>/<n>": {...schedule...}}` where n counts
    the function's linalg ops in order from 0 (a remark with
    `-mlir-print-op-on-diagnostic` or `strata-compile --emit=mlir` shows
    each op's schedule).
  }];
  let options = [Option<"scheduleFile", "schedule-file", "std::string",
                        "\"\"", "JSON file with schedules to use instead">];
}

def StrataApplySchedule : Pass<"strata-apply-schedule"> {
  let summary = "S4: tile, pack and vectorize ops as their schedules say";
  let description = [{
    For every op with a `strata.schedule`, on tensors: splits its loops over
    the grid level (`scf.forall` mapped to `#strata.grid<level>`), tiles the
    cache levels in the schedule's loop order, copies the packed operands into
    contiguous buffers padded to whole register tiles (copies sit in the
    outermost loop they depend on), tiles to the register tile and vectorizes
    it; accumulators of a register tile are read once before its reduction
    loop and written once after it.
  }];
  let options = [
    Option<"fuse", "fuse", "bool", /*default=*/"true",
           "Form fusion groups and fuse epilogues (off: every op alone)">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::bufferization::BufferizationDialect"];
}

def StrataDecomposeWindows : Pass<"strata-decompose-windows"> {
  let summary = "Split windowed ops (convolutions, pooling) into shifted terms";
  let description = [{
    An op that reads its first input through windows (`in[oh * s + kh * d]`,
    read from its indexing maps) becomes one op per window position: each
    reads a strided slice of the input and the filter at that position, and
    accumulates into the output. A convolution's terms are contractions the
    model packs and vectorizes like matmuls; a depthwise convolution's or a
    pooling's terms are elementwise. Windows of more than 49 positions, and
    dynamic shapes, are left alone.

    ```mlir
    linalg.conv_2d_nhwc_hwcf ins(%in, %w : tensor<1x58x58x64xf32>, tensor<3x3x64x64xf32>) ...
    // -> nine of:
    %x = tensor.extract_slice %in[0, kh, kw, 0] [1, 56, 56, 64] [1, 1, 1, 1]
    %f = tensor.extract_slice %w[kh, kw, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1] : ... to tensor<64x64xf32>
    %acc = linalg.generic {(n, oh, ow, f, c)} ins(%x, %f) outs(%acc) ...
    ```
  }];
  let options = [
    Option<"contractions", "contractions", "bool", /*default=*/"true",
           "Also split ops whose terms are contractions (convolutions)">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def StrataFuseElementwise : Pass<"strata-fuse-elementwise"> {
  let summary = "Merge chains of elementwise ops into one op";
  let description = [{
    An elementwise producer is merged into its consumer when nothing is
    computed twice: it has no other user, or it only moves data (a
    broadcast, a transposition, a fill). Named elementwise ops become
    generics first. A contraction keeps its multiply-add body (its
    elementwise consumers fuse later as epilogues). An op that reads no
    tensor (an arange, a causal mask built from aranges) fuses into every
    consumer: it is a function of the loop indices. Before fusing, the
    unit dims of generics next to reshapes are dropped and reshapes move
    past elementwise ops and reductions (not contractions, nor ops reading
    slices), so the reshapes PyTorch puts around batched products (a head
    count of 1, batch and heads merged) meet and cancel.

    ```mlir
    %d = linalg.generic ins(%x, %y) { subf }
    %b = linalg.broadcast ins(%s) dimensions = [0]
    %m = linalg.generic ins(%d, %b) { mulf }
    // ->
    %m = linalg.generic {maps = [(i,j)->(i,j), (i,j)->(i,j), (i,j)->(j), ...]}
        ins(%x, %y, %s) { subf; mulf }
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def StrataWidenBooleans : Pass<"strata-widen-booleans"> {
  let summary = "Pass booleans between linalg ops as bytes";
  let description = [{
    A tensor of i1 made by one linalg op and read by others (a row's "all
    scores are masked" flag in PyTorch's safe softmax) becomes a tensor of
    i8: the producer yields `extui`, its readers `trunci` their argument.
    Vector code over i1 memory has no portable layout, so the model leaves
    i1 ops unscheduled and they would stay outside the fusion groups; as
    bytes they are scheduled and fuse like any other op. A bitwise
    reduction of the flag is made on bytes (`ori` of the i8 accumulator),
    which vectorizes as a reduction. An i1 tensor no linalg op makes (a
    bool mask argument) is extended to bytes once, by an op of its own.

    ```mlir
    %f = linalg.fill ins(%false : i1) outs(%e : tensor<8xi1>)
    %r = linalg.generic ins(%s : tensor<8x16xf32>) outs(%f) { cmpf; ori }
    %y = linalg.generic ins(%r, %p : tensor<8xi1>, ...) { select }
    // ->
    %f = linalg.fill ins(%c0_i8 : i8) outs(%e8 : tensor<8xi8>)
    %r = linalg.generic ins(%s) outs(%f) { cmpf; extui; ori %out }
    %y = linalg.generic ins(%r, %p : tensor<8xi8>, ...) { trunci; select }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def StrataDropDeallocs : Pass<"strata-drop-deallocs"> {
  let summary = "The program's own memref.dealloc ops are dropped";
  let description = [{
    A program written on buffers may free them itself. Strata's
    deallocation pipeline frees every buffer, the program's allocations
    among them, after its last use, and refuses a function that already
    frees one ("memory free side-effect on MemRef value not supported").
    The program's frees are dropped before it runs: each buffer is then
    freed once, no later than the program freed it.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def StrataUnitSliceStrides : Pass<"strata-unit-slice-strides"> {
  let summary = "Slices take stride 1 along the dimensions they take one of";
  let description = [{
    A `tensor.extract_slice` or `tensor.insert_slice` of size 1 along a
    dimension reads or writes one index there whatever its stride: the stride
    becomes 1. Upstream's memref folding crashed on a rank-reducing subview
    whose kept unit dimension had stride 2 (`[1, 2, 1]` with strides
    `[1, 1, 2]`); the normalized slice is the same values.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def StrataStridedSlices : Pass<"strata-strided-slices"> {
  let summary = "Strided slices of tensors become elementwise copies";
  let description = [{
    A static `tensor.extract_slice` whose elements are not one contiguous
    run of its source (the q, k and v columns of a packed projection)
    becomes a `linalg.generic` that reads the source through an affine map
    with the slice's offsets and strides. Kernels of the hierarchy path
    take dense buffers only; the copy is an elementwise op that fusion can
    fold into its consumers. Contiguous slices stay views, unless
    `contiguous` is set (a plugin whose host code passes whole buffers
    only). A prefix that is no block of its dim (offset 0, unit stride, a
    size that does not divide the dim) stays a slice.
  }];
  let options = [
    Option<"contiguous", "contiguous", "bool", /*default=*/"false",
           "Copy contiguous slices too">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def StrataReciprocalDivisions : Pass<"strata-reciprocal-divisions"> {
  let summary = "Divide by a broadcast operand through its reciprocal";
  let description = [{
    An elementwise op whose only use of an operand broadcast along some of
    its loops is as a divisor (a softmax's row sums, a layernorm's standard
    deviations) multiplies by that operand's reciprocal instead, computed
    once per element of the operand by a new elementwise op over its shape.
    One division per row instead of one per element; the result differs by
    at most one rounding.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def StrataWidenAccumulators : Pass<"strata-widen-accumulators"> {
  let summary = "Sum bf16/f16 contractions and sums in f32 and round once";
  let description = [{
    A contraction (two inputs) or a sum (one input) with a bf16 or f16
    output whose body multiplies and adds floats gets an f32 output (its initial value extended: a fill is filled
    in f32) and an elementwise truncation to the original type after it,
    which the schedule fuses as an epilogue. Its accumulators then stay f32
    across the reduction, as every library's do, instead of rounding after
    each multiply-add.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def StrataRoundContractionInputs : Pass<"strata-round-contraction-inputs"> {
  let summary = "Read f32 contraction inputs with a matrix unit's mantissa bits";
  let description = [{
    For the reference of a program's own precision that `strata-run --check`
    sizes its tolerance with: every f32 input of a contraction (a linalg op
    with reduction loops whose body multiplies floats) is read through an
    elementwise op that keeps only the leading `mantissa-bits` bits of its
    mantissa (tf32: 10), as a chip's matrix unit that narrows f32 operands
    reads them. Truncation, the larger error of the two roundings.

    ```mlir
    %c = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) ...
    // -> mantissa-bits=10
    %ar = linalg.generic ... { arith.bitcast, arith.andi %x, -8192, arith.bitcast } ...
    %br = linalg.generic ... { ... }
    %c = linalg.matmul ins(%ar, %br : ...) ...
    ```
  }];
  let options = [
    Option<"mantissaBits", "mantissa-bits", "int64_t", /*default=*/"0",
           "Explicit mantissa bits kept of f32 inputs (0: inputs unchanged)">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def StrataChannelsLast : Pass<"strata-channels-last"> {
  let summary = "Convolutions as channels-last (NHWC x HWCF) convolutions";
  let description = [{
    A `linalg.conv_2d_nchw_fchw` (PyTorch's layout) becomes transposes of
    its input to NHWC and of its filter to HWCF, a
    `linalg.conv_2d_nhwc_hwcf` (its initial value a fill of the new shape,
    or the old one transposed) and a transpose of the result back to NCHW;
    a `linalg.conv_2d_nhwc_fhwc` (TOSA's) gets its filter transposed. Each
    transpose is a sequence of batched matrix transposes
    (strata/Transforms/Transposes.h). The core runs it for chips that
    compute convolutions only as the implicit GEMM of channels-last
    tensors (a grid of scratchpads), before convolutions are split into
    window positions.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def StrataRowReductions : Pass<"strata-row-reductions"> {
  let summary = "Reductions over any loops as a sequence of row reductions";
  let description = [{
    A reduction of one input whose body combines with an associative and
    commutative op that has a neutral element (a sum, a product, a max, a
    min) over loops other than the input's innermost alone becomes row
    reductions only: the input is transposed once so that the reduced
    loops come last in the order of the output's loops, then each reduced
    loop is summed away innermost first, the first step with the original
    body, the others with its combining op alone, each into a fill of the
    neutral element but the last, which keeps the original initial value.
    A reduction to a scalar reduces a row of one: its input is expanded to
    [1, n] and its result collapsed back.

    ```mlir
    linalg.reduce ins(%x : tensor<30x41x50xf32>) dimensions = [0, 1]
    // ->
    %t = linalg.transpose ins(%x) permutation = [2, 0, 1]  // 50x30x41
    %a = linalg.generic ... reduce the last loop into 50x30 (fill of 0)
    %b = linalg.generic ... reduce the last loop into 50 (the original init)
    ```

    The core runs it for chips whose schedule model reduces along rows only
    (a grid of scratchpads, whose engines reduce a tile's rows); a body
    that reads loop indices is left alone.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def StrataNormalizeContractions : Pass<"strata-normalize-contractions"> {
  let summary = "Make every contraction's vector loop contiguous in memory";
  let description = [{
    Consecutive parallel loops of a contraction that every operand reads as
    one contiguous block (a 1x1 convolution's n, h, w; a linear layer's batch
    and sequence) are collapsed into one loop of rows (operands that are
    slices excepted), and elementwise consumers follow into that shape.

    A contraction whose output's innermost loop indexes an input along a
    dimension that is not the input's innermost (e.g. `Q * K^T` written as a
    batch matmul with `K` indexed `(b, n, k)`) gets that input transposed
    once (a `linalg.transpose`, O(n*k) work against O(m*n*k)), so the model
    sees a contraction it can pack and vectorize:

    ```mlir
    linalg.batch_matmul indexing_maps = [(b,m,n,k)->(b,m,k), (b,m,n,k)->(b,n,k), ...]
    // ->
    %kt = linalg.transpose ins(%k) permutation = [0, 2, 1]
    linalg.generic {indexing_maps = [..., (b,m,n,k)->(b,k,n), ...]}
    ```

    On a chip whose innermost memory level is a cache, the copy's rows are
    padded by one line of it when they are a multiple of 1 KiB long (a slice
    of a `bufferization.alloc_tensor`): the register tile walks those rows
    with the row length as stride, which would otherwise map them to a few
    cache sets.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def StrataLowerCopies : Pass<"strata-lower-copies"> {
  let summary = "Copies between buffers become vector loads and stores";
  let description = [{
    A `memref.copy` of static shape becomes vector transfers (lowered later
    at the vector width), one per power-of-two piece of its rows; one of
    dynamically many rows of a static length becomes a loop over the rows
    around such transfers; one of other dynamic shapes becomes loops. Strided
    copies would otherwise call a runtime library function.
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def StrataPrefetchNext : Pass<"strata-prefetch-next", "::mlir::ModuleOp"> {
  let summary = "Prefetch the next slice of a multi-pass loop";
  let description = [{
    A sequential loop whose body holds several loops (passes) over a slice
    of a function's buffer that its iterations move along, when the buffer
    is larger than the description's largest cache: the last pass that
    reads the slice also issues `memref.prefetch` for each cache line (the
    smallest cache's alignment) of the next iteration's slice, so that
    memory transfers overlap the passes that only compute. The hardware's
    prefetcher stops when the reads stop. Modules without a description are
    left alone.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def StrataKeepRoundings : Pass<"strata-keep-roundings"> {
  let summary = "Keep the roundings of emulated narrow-float arithmetic";
  let description = [{
    arith-emulate-unsupported-floats computes each bf16/f16 op in f32
    between an `arith.extf` and an `arith.truncf` marked
    `fastmath<contract>`, which lets `extf(truncf(x))` fold to `x`: a value
    then reaches some of its users rounded and others not (x - max(x) over
    a row of equal bf16 values was not 0: the subtraction read the product
    unrounded, the max the rounded one). This pass clears the fast-math
    flags of the float conversions, so every user reads the value the
    program computed, rounded to its type.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def StrataStreamingStores
    : Pass<"strata-streaming-stores", "::mlir::ModuleOp"> {
  let summary = "Mark stores into large write-only buffers non-temporal";
  let description = [{
    A public function's buffer that it only stores into (through views),
    and that is larger than the largest cache level of the module's
    description, gets its vector stores marked `nontemporal`: the data
    cannot stay cached for a later reader, and a streaming store writes
    whole lines without first reading them (a normal store reads each line
    it writes to own it, one more pass over memory). Streaming stores are
    weakly ordered: a full fence (`llvm.fence seq_cst`) follows each
    outermost sequential loop nest that holds them. A nest some of whose
    stores are proven aligned to the vector width when their buffers are
    (a divisibility analysis of indices, loop bounds and view offsets) runs
    in two versions chosen at run time: those stores carry their proven
    `alignment` when the buffers are aligned, and every store is plain
    otherwise. Modules without a description are left alone.
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def StrataLowerVectors : Pass<"strata-lower-vectors"> {
  let summary = "Lower n-D vector ops to 1-D vector arithmetic";
  let description = [{
    A product added to an accumulator becomes one multiply-add (a contraction
    whose reduction the vectorizer unrolled arrives as a multiply, a shape
    cast and an add); contractions become outer products and then
    multiply-adds of one row by a broadcast element; n-D transfers become 1-D loads and stores; transposes,
    broadcasts, shape casts and multi-reductions become 1-D ops, so a backend
    sees only the vector width of the description.
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect"];
}

def StrataMapHierarchy : Pass<"strata-map-hierarchy", "::mlir::func::FuncOp"> {
  let summary = "S4 on buffers: map ops to nested compute levels and a scratchpad";
  let description = [{
    For chips whose scratchpad belongs to a compute level with groups of
    lanes inside (Schedule/HierarchyModel.h), after bufferization: each
    contraction becomes nested `scf.forall` loops over the block, group and
    lane levels (`#strata.grid<...>`) with its operand tiles copied into
    `#strata.mem<scratchpad>` buffers, `gpu.barrier` between the copies and
    their use, and `vector.contract` ops at a matrix intrinsic's shape
    (tagged `strata.intrinsic`) or per-lane multiply-adds; a zero fill and an
    elementwise consumer (bias, activation) fold into its kernel. Other
    elementwise ops get one element per lane:

    ```mlir
    linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
    // ->
    scf.forall (%i, %j) in (1, 2) {
      %as = memref.alloc() : memref<64x72xf16, #strata.mem<"tiles">>
      scf.forall (%g) in (2) {
        scf.for ... { scf.forall (%l) in (32) { copies } gpu.barrier
                      vector.contract {strata.intrinsic = "mm16x8x16"} ... }
      } {mapping = [#strata.grid<"group", 0>]}
    } {mapping = [#strata.grid<"block", 1>, #strata.grid<"block", 0>]}
    ```
    Chips without such a hierarchy are left alone. With `allow-tf32`, f32
    operands may feed a matrix intrinsic whose operands are tf32 (rounded to
    10 mantissa bits); without it f32 contractions keep multiply-adds.
  }];
  let options = [
    Option<"allowTf32", "allow-tf32", "bool", /*default=*/"false",
           "Let f32 operands use tf32 matrix intrinsics (rounds the inputs)">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

#endif // STRATA_TRANSFORMS_PASSES
