//===- NpuOps.td - The npu dialect: DMA, systolic array, vector unit ------===//
//
// A program for the walkthrough's systolic-array NPU, fully unrolled: every
// op names the core that runs it and returns a token; an op starts once the
// ops whose tokens it lists (`after`) have finished and its engine (the
// core's DMA engine, array or vector unit) is free. Memory is a memref's
// memory space: 0 DRAM (shared), 1 a core's scratchpad, 2 its accumulator.
// Scratchpad and accumulator buffers are flat; a view of one is
// [offset, stride per dimension...] in elements over the op's sizes.
//
//===----------------------------------------------------------------------===//
#ifndef NPU_OPS_TD
#define NPU_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Npu_Dialect : Dialect {
  let name = "npu";
  let cppNamespace = "::npu";
  let summary = "The walkthrough NPU: DMA, a systolic array and a vector unit";
  let useDefaultTypePrinterParser = 1;
}

class Npu_Op<string mnemonic, list<Trait> traits = []>
    : Op<Npu_Dialect, mnemonic, traits>;

def Npu_Token : TypeDef<Npu_Dialect, "Token"> {
  let mnemonic = "token";
  let summary = "completion of an asynchronous npu op";
}

def Npu_BufferOp : Npu_Op<"buffer"> {
  let summary = "a flat scratchpad or accumulator buffer of one core";
  let description = [{
    Placed at `offset` bytes in the memory of `core`: the plugin lays the
    buffers out and the verifier checks they fit the description's capacity.
  }];
  let arguments = (ins I64Attr:$core, I64Attr:$offset);
  let results = (outs MemRefRankOf<[AnyType], [1]>:$memref);
  let assemblyFormat = "attr-dict `:` type($memref)";
  let hasVerifier = 1;
}

class Npu_DmaOp<string mnemonic> : Npu_Op<mnemonic> {
  let arguments = (ins AnyMemRef:$src, AnyMemRef:$dst,
                   Variadic<Npu_Token>:$deps, DenseI64ArrayAttr:$sizes,
                   DenseI64ArrayAttr:$src_view, DenseI64ArrayAttr:$dst_view,
                   I64Attr:$core);
  let results = (outs Npu_Token:$token);
  let assemblyFormat = [{
    $src `->` $dst (`after` `(` $deps^ `)`)? attr-dict `:` type($src) `->`
    type($dst)
  }];
  let hasVerifier = 1;
}

def Npu_DmaLoadOp : Npu_DmaOp<"dma_load"> {
  let summary = "copies a strided box from DRAM into a scratchpad buffer";
}

def Npu_DmaStoreOp : Npu_DmaOp<"dma_store"> {
  let summary = "copies a strided box from a core's buffer to DRAM";
}

def Npu_MatmulOp : Npu_Op<"matmul"> {
  let summary = "acc[m x n] (+)= a[m x k] * b[k x n] on the systolic array";
  let description = [{
    `a` and `b` are scratchpad views, `acc` an accumulator view; without
    `accumulate` the accumulator is overwritten.
  }];
  let arguments = (ins AnyMemRef:$a, AnyMemRef:$b, AnyMemRef:$acc,
                   Variadic<Npu_Token>:$deps, I64Attr:$m, I64Attr:$n,
                   I64Attr:$k, DenseI64ArrayAttr:$a_view,
                   DenseI64ArrayAttr:$b_view, DenseI64ArrayAttr:$acc_view,
                   UnitAttr:$accumulate, I64Attr:$core);
  let results = (outs Npu_Token:$token);
  let assemblyFormat = [{
    $a `,` $b `,` $acc (`after` `(` $deps^ `)`)? attr-dict `:` type($a) `,`
    type($b) `,` type($acc)
  }];
  let hasVerifier = 1;
}

def Npu_VectorOp : Npu_Op<"vector", [AttrSizedOperandSegments]> {
  let summary = "out[i] = fn(ins[i]..., scalar) over strided views";
  let description = [{
    Points are visited in row-major order of `sizes`, one at a time, so an
    output view with stride 0 along a dimension that also reads the output
    accumulates a reduction. `fn` is one of the unit's functions (add, sub,
    mul, div, max, min, maxnum, minnum (NaN-ignoring), copy, exp, tanh, erf, sqrt, rsqrt, recip, neg, abs,
    and the scalar forms fill, adds, muls).
  }];
  let arguments = (ins StrAttr:$fn, AnyMemRef:$out, Variadic<AnyMemRef>:$ins,
                   Variadic<Npu_Token>:$deps, DenseI64ArrayAttr:$sizes,
                   DenseI64ArrayAttr:$out_view, ArrayAttr:$in_views,
                   OptionalAttr<F64Attr>:$scalar, I64Attr:$core);
  let results = (outs Npu_Token:$token);
  let assemblyFormat = [{
    $fn $out (`,` $ins^)? (`after` `(` $deps^ `)`)? attr-dict `:` type($out)
    (`,` type($ins)^)?
  }];
  let hasVerifier = 1;
}

def Npu_WaitOp : Npu_Op<"wait"> {
  let summary = "waits for every op issued before it on every core";
  let assemblyFormat = "attr-dict";
}

#endif // NPU_OPS_TD
