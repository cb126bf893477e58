// A row-block attention group whose mask hides the keys past each query
// plus c (the causal mask PyTorch exports, c = 0; a window, c = 100) tiles
// its ops along the keys into key tiles of the P*V k tile (128), their
// loops ending at the block's last visible key tile: min(512, max(128,
// ceil((q0 + rows + c) / 128) * 128)). Every op of the group's key tiles
// is checked to be unaffected by the keys it skips (-inf scores, zero
// probabilities, identities of the reductions): a minimum over the keys
// (-inf in every row but the last, which the hidden keys decide) keeps the
// whole key range. The scaled scores also returned are computed whole
// outside the group, which still skips. All checked against the reference
// lowering on two cores.
// RUN: strata-compile %s --target=host-x86-avx512 --emit=mlir -o - | FileCheck %s
// RUN: %if host-avx512 %{ strata-run %s --target=host-x86-avx512 --check | FileCheck %s --check-prefix=EXEC %}

// CHECK-LABEL: func.func @attention_causal(
// CHECK: scf.for %[[Q:.*]] = %c0 to %c512 step %[[ROWS:c[0-9]+]]
// CHECK: %[[LAST:.*]] = arith.addi %[[Q]], %[[ROWS]]
// CHECK: %[[TILES:.*]] = arith.ceildivsi %[[LAST]], %c128
// CHECK: %[[END0:.*]] = arith.muli %[[TILES]], %c128
// CHECK: %[[END1:.*]] = arith.maxsi %[[END0]], %c128
// CHECK: %[[END:.*]] = arith.minsi %[[END1]], %c512
// CHECK: scf.for %{{.*}} = %c0 to %[[END]] step %c128
// EXEC-DAG: attention_causal: check result #0 (2x512x64xf32): relative error {{.*}} PASS

// CHECK-LABEL: func.func @window(
// CHECK: arith.ceildivsi
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c128
// EXEC-DAG: window: check result #0 (2x512x64xf32): relative error {{.*}} PASS

// CHECK-LABEL: func.func @scores_returned(
// CHECK: arith.ceildivsi
// EXEC-DAG: scores_returned: check result #0 (2x512x64xf32): relative error {{.*}} PASS
// EXEC-DAG: scores_returned: check result #1 (2x512x512xf32): relative error {{.*}} PASS

// One head on two cores: the grid splits the queries, and each part's
// blocks count from the part's first query.
// CHECK-LABEL: func.func @one_head(
// CHECK: scf.forall
// CHECK: scf.forall (%[[PART:.*]]) = (0) to (512) step (256)
// CHECK: scf.for %[[Q:.*]] = %c0 to %c256 step %[[ROWS:c[0-9]+]] {
// CHECK-NEXT: %[[FIRST:.*]] = arith.addi %[[Q]], %[[PART]]
// CHECK: %[[LAST:.*]] = arith.addi %[[FIRST]], %[[ROWS]]
// CHECK: arith.ceildivsi %[[LAST]], %c128
// EXEC-DAG: one_head: check result #0 (1x512x64xf32): relative error {{.*}} PASS

// CHECK-LABEL: func.func @min_over_keys(
// CHECK-NOT: arith.ceildivsi
// CHECK: return
// EXEC-DAG: min_over_keys: check result #0 (2x512x64xf32): relative error {{.*}} PASS

#mq = affine_map<(b, m, n, k) -> (b, m, k)>
#mk = affine_map<(b, m, n, k) -> (b, n, k)>
#mo = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(b, i, j) -> (b, i, j)>
#row = affine_map<(b, i, j) -> (b, i)>
#ij = affine_map<(b, i, j) -> (i, j)>
#i1d = affine_map<(i) -> (i)>
func.func @attention_causal(%q: tensor<2x512x64xf32>, %k: tensor<2x512x64xf32>, %v: tensor<2x512x64xf32>) -> tensor<2x512x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %zi = arith.constant 0 : i64
  %true = arith.constant true
  %false = arith.constant false
  %scale = arith.constant 0.125 : f32
  %ea = tensor.empty() : tensor<512xi64>
  %ar = linalg.generic {indexing_maps = [#i1d], iterator_types = ["parallel"]}
      outs(%ea : tensor<512xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<512xi64>
  %em = tensor.empty() : tensor<512x512xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>,
                          affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%ar, %ar : tensor<512xi64>, tensor<512xi64>) outs(%em : tensor<512x512xf32>) {
  ^bb0(%kj: i64, %qi: i64, %out: f32):
    %dif = arith.subi %kj, %qi : i64
    %keep = arith.cmpi sle, %dif, %zi : i64
    %m = arith.select %keep, %zero, %ninf : f32
    linalg.yield %m : f32
  } -> tensor<512x512xf32>
  %e0 = tensor.empty() : tensor<2x512x512xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x512x512xf32>) -> tensor<2x512x512xf32>
  %qk = linalg.batch_matmul indexing_maps = [#mq, #mk, #mo]
      ins(%q, %k : tensor<2x512x64xf32>, tensor<2x512x64xf32>) outs(%f0 : tensor<2x512x512xf32>) -> tensor<2x512x512xf32>
  %e1 = tensor.empty() : tensor<2x512x512xf32>
  %sc = linalg.generic {indexing_maps = [#id, #ij, #id],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%qk, %mask : tensor<2x512x512xf32>, tensor<512x512xf32>) outs(%e1 : tensor<2x512x512xf32>) {
  ^bb0(%x: f32, %m: f32, %out: f32):
    %y = arith.mulf %x, %scale : f32
    %z = arith.addf %y, %m : f32
    linalg.yield %z : f32
  } -> tensor<2x512x512xf32>
  %e2 = tensor.empty() : tensor<2x512x512xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<2x512x512xf32>) outs(%e2 : tensor<2x512x512xf32>) -> tensor<2x512x512xf32>
  %eb = tensor.empty() : tensor<2x512xi1>
  %fb = linalg.fill ins(%false : i1) outs(%eb : tensor<2x512xi1>) -> tensor<2x512xi1>
  %any = linalg.generic {indexing_maps = [#id, #row],
                         iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sc : tensor<2x512x512xf32>) outs(%fb : tensor<2x512xi1>) {
  ^bb0(%x: f32, %out: i1):
    %masked = arith.cmpf oeq, %x, %ninf : f32
    %kept = arith.xori %masked, %true : i1
    %r = arith.ori %out, %kept : i1
    linalg.yield %r : i1
  } -> tensor<2x512xi1>
  %e4 = tensor.empty() : tensor<2x512x512xf32>
  %ps = linalg.generic {indexing_maps = [#row, #id, #id],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%any, %p : tensor<2x512xi1>, tensor<2x512x512xf32>) outs(%e4 : tensor<2x512x512xf32>) {
  ^bb0(%a: i1, %x: f32, %out: f32):
    %y = arith.select %a, %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<2x512x512xf32>
  %e3 = tensor.empty() : tensor<2x512x64xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x512x64xf32>) -> tensor<2x512x64xf32>
  %o = linalg.batch_matmul ins(%ps, %v : tensor<2x512x512xf32>, tensor<2x512x64xf32>) outs(%f3 : tensor<2x512x64xf32>) -> tensor<2x512x64xf32>
  return %o : tensor<2x512x64xf32>
}


func.func @window(%q: tensor<2x512x64xf32>, %k: tensor<2x512x64xf32>, %v: tensor<2x512x64xf32>) -> tensor<2x512x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %zi = arith.constant 0 : i64
  %c100 = arith.constant 100 : i64
  %true = arith.constant true
  %false = arith.constant false
  %scale = arith.constant 0.125 : f32
  %ea = tensor.empty() : tensor<512xi64>
  %ar = linalg.generic {indexing_maps = [#i1d], iterator_types = ["parallel"]}
      outs(%ea : tensor<512xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<512xi64>
  %em = tensor.empty() : tensor<512x512xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>,
                          affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%ar, %ar : tensor<512xi64>, tensor<512xi64>) outs(%em : tensor<512x512xf32>) {
  ^bb0(%kj: i64, %qi: i64, %out: f32):
    %dif = arith.subi %kj, %qi : i64
    %keep = arith.cmpi sle, %dif, %c100 : i64
    %m = arith.select %keep, %zero, %ninf : f32
    linalg.yield %m : f32
  } -> tensor<512x512xf32>
  %e0 = tensor.empty() : tensor<2x512x512xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x512x512xf32>) -> tensor<2x512x512xf32>
  %qk = linalg.batch_matmul indexing_maps = [#mq, #mk, #mo]
      ins(%q, %k : tensor<2x512x64xf32>, tensor<2x512x64xf32>) outs(%f0 : tensor<2x512x512xf32>) -> tensor<2x512x512xf32>
  %e1 = tensor.empty() : tensor<2x512x512xf32>
  %sc = linalg.generic {indexing_maps = [#id, #ij, #id],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%qk, %mask : tensor<2x512x512xf32>, tensor<512x512xf32>) outs(%e1 : tensor<2x512x512xf32>) {
  ^bb0(%x: f32, %m: f32, %out: f32):
    %y = arith.mulf %x, %scale : f32
    %z = arith.addf %y, %m : f32
    linalg.yield %z : f32
  } -> tensor<2x512x512xf32>
  %e2 = tensor.empty() : tensor<2x512x512xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<2x512x512xf32>) outs(%e2 : tensor<2x512x512xf32>) -> tensor<2x512x512xf32>
  %eb = tensor.empty() : tensor<2x512xi1>
  %fb = linalg.fill ins(%false : i1) outs(%eb : tensor<2x512xi1>) -> tensor<2x512xi1>
  %any = linalg.generic {indexing_maps = [#id, #row],
                         iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sc : tensor<2x512x512xf32>) outs(%fb : tensor<2x512xi1>) {
  ^bb0(%x: f32, %out: i1):
    %masked = arith.cmpf oeq, %x, %ninf : f32
    %kept = arith.xori %masked, %true : i1
    %r = arith.ori %out, %kept : i1
    linalg.yield %r : i1
  } -> tensor<2x512xi1>
  %e4 = tensor.empty() : tensor<2x512x512xf32>
  %ps = linalg.generic {indexing_maps = [#row, #id, #id],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%any, %p : tensor<2x512xi1>, tensor<2x512x512xf32>) outs(%e4 : tensor<2x512x512xf32>) {
  ^bb0(%a: i1, %x: f32, %out: f32):
    %y = arith.select %a, %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<2x512x512xf32>
  %e3 = tensor.empty() : tensor<2x512x64xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x512x64xf32>) -> tensor<2x512x64xf32>
  %o = linalg.batch_matmul ins(%ps, %v : tensor<2x512x512xf32>, tensor<2x512x64xf32>) outs(%f3 : tensor<2x512x64xf32>) -> tensor<2x512x64xf32>
  return %o : tensor<2x512x64xf32>
}


func.func @scores_returned(%q: tensor<2x512x64xf32>, %k: tensor<2x512x64xf32>, %v: tensor<2x512x64xf32>) -> (tensor<2x512x64xf32>, tensor<2x512x512xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %zi = arith.constant 0 : i64
  %true = arith.constant true
  %false = arith.constant false
  %scale = arith.constant 0.125 : f32
  %ea = tensor.empty() : tensor<512xi64>
  %ar = linalg.generic {indexing_maps = [#i1d], iterator_types = ["parallel"]}
      outs(%ea : tensor<512xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<512xi64>
  %em = tensor.empty() : tensor<512x512xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>,
                          affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%ar, %ar : tensor<512xi64>, tensor<512xi64>) outs(%em : tensor<512x512xf32>) {
  ^bb0(%kj: i64, %qi: i64, %out: f32):
    %dif = arith.subi %kj, %qi : i64
    %keep = arith.cmpi sle, %dif, %zi : i64
    %m = arith.select %keep, %zero, %ninf : f32
    linalg.yield %m : f32
  } -> tensor<512x512xf32>
  %e0 = tensor.empty() : tensor<2x512x512xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x512x512xf32>) -> tensor<2x512x512xf32>
  %qk = linalg.batch_matmul indexing_maps = [#mq, #mk, #mo]
      ins(%q, %k : tensor<2x512x64xf32>, tensor<2x512x64xf32>) outs(%f0 : tensor<2x512x512xf32>) -> tensor<2x512x512xf32>
  %e1 = tensor.empty() : tensor<2x512x512xf32>
  %sc = linalg.generic {indexing_maps = [#id, #ij, #id],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%qk, %mask : tensor<2x512x512xf32>, tensor<512x512xf32>) outs(%e1 : tensor<2x512x512xf32>) {
  ^bb0(%x: f32, %m: f32, %out: f32):
    %y = arith.mulf %x, %scale : f32
    %z = arith.addf %y, %m : f32
    linalg.yield %z : f32
  } -> tensor<2x512x512xf32>
  %e2 = tensor.empty() : tensor<2x512x512xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<2x512x512xf32>) outs(%e2 : tensor<2x512x512xf32>) -> tensor<2x512x512xf32>
  %eb = tensor.empty() : tensor<2x512xi1>
  %fb = linalg.fill ins(%false : i1) outs(%eb : tensor<2x512xi1>) -> tensor<2x512xi1>
  %any = linalg.generic {indexing_maps = [#id, #row],
                         iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sc : tensor<2x512x512xf32>) outs(%fb : tensor<2x512xi1>) {
  ^bb0(%x: f32, %out: i1):
    %masked = arith.cmpf oeq, %x, %ninf : f32
    %kept = arith.xori %masked, %true : i1
    %r = arith.ori %out, %kept : i1
    linalg.yield %r : i1
  } -> tensor<2x512xi1>
  %e4 = tensor.empty() : tensor<2x512x512xf32>
  %ps = linalg.generic {indexing_maps = [#row, #id, #id],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%any, %p : tensor<2x512xi1>, tensor<2x512x512xf32>) outs(%e4 : tensor<2x512x512xf32>) {
  ^bb0(%a: i1, %x: f32, %out: f32):
    %y = arith.select %a, %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<2x512x512xf32>
  %e3 = tensor.empty() : tensor<2x512x64xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x512x64xf32>) -> tensor<2x512x64xf32>
  %o = linalg.batch_matmul ins(%ps, %v : tensor<2x512x512xf32>, tensor<2x512x64xf32>) outs(%f3 : tensor<2x512x64xf32>) -> tensor<2x512x64xf32>
  return %o, %sc : tensor<2x512x64xf32>, tensor<2x512x512xf32>
}

func.func @one_head(%q: tensor<1x512x64xf32>, %k: tensor<1x512x64xf32>, %v: tensor<1x512x64xf32>) -> tensor<1x512x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %zi = arith.constant 0 : i64
  %true = arith.constant true
  %false = arith.constant false
  %scale = arith.constant 0.125 : f32
  %ea = tensor.empty() : tensor<512xi64>
  %ar = linalg.generic {indexing_maps = [#i1d], iterator_types = ["parallel"]}
      outs(%ea : tensor<512xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<512xi64>
  %em = tensor.empty() : tensor<512x512xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>,
                          affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%ar, %ar : tensor<512xi64>, tensor<512xi64>) outs(%em : tensor<512x512xf32>) {
  ^bb0(%kj: i64, %qi: i64, %out: f32):
    %dif = arith.subi %kj, %qi : i64
    %keep = arith.cmpi sle, %dif, %zi : i64
    %m = arith.select %keep, %zero, %ninf : f32
    linalg.yield %m : f32
  } -> tensor<512x512xf32>
  %e0 = tensor.empty() : tensor<1x512x512xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x512x512xf32>) -> tensor<1x512x512xf32>
  %qk = linalg.batch_matmul indexing_maps = [#mq, #mk, #mo]
      ins(%q, %k : tensor<1x512x64xf32>, tensor<1x512x64xf32>) outs(%f0 : tensor<1x512x512xf32>) -> tensor<1x512x512xf32>
  %e1 = tensor.empty() : tensor<1x512x512xf32>
  %sc = linalg.generic {indexing_maps = [#id, #ij, #id],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%qk, %mask : tensor<1x512x512xf32>, tensor<512x512xf32>) outs(%e1 : tensor<1x512x512xf32>) {
  ^bb0(%x: f32, %m: f32, %out: f32):
    %y = arith.mulf %x, %scale : f32
    %z = arith.addf %y, %m : f32
    linalg.yield %z : f32
  } -> tensor<1x512x512xf32>
  %e2 = tensor.empty() : tensor<1x512x512xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<1x512x512xf32>) outs(%e2 : tensor<1x512x512xf32>) -> tensor<1x512x512xf32>
  %eb = tensor.empty() : tensor<1x512xi1>
  %fb = linalg.fill ins(%false : i1) outs(%eb : tensor<1x512xi1>) -> tensor<1x512xi1>
  %any = linalg.generic {indexing_maps = [#id, #row],
                         iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sc : tensor<1x512x512xf32>) outs(%fb : tensor<1x512xi1>) {
  ^bb0(%x: f32, %out: i1):
    %masked = arith.cmpf oeq, %x, %ninf : f32
    %kept = arith.xori %masked, %true : i1
    %r = arith.ori %out, %kept : i1
    linalg.yield %r : i1
  } -> tensor<1x512xi1>
  %e4 = tensor.empty() : tensor<1x512x512xf32>
  %ps = linalg.generic {indexing_maps = [#row, #id, #id],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%any, %p : tensor<1x512xi1>, tensor<1x512x512xf32>) outs(%e4 : tensor<1x512x512xf32>) {
  ^bb0(%a: i1, %x: f32, %out: f32):
    %y = arith.select %a, %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<1x512x512xf32>
  %e3 = tensor.empty() : tensor<1x512x64xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x512x64xf32>) -> tensor<1x512x64xf32>
  %o = linalg.batch_matmul ins(%ps, %v : tensor<1x512x512xf32>, tensor<1x512x64xf32>) outs(%f3 : tensor<1x512x64xf32>) -> tensor<1x512x64xf32>
  return %o : tensor<1x512x64xf32>
}

func.func @min_over_keys(%q: tensor<2x512x64xf32>, %k: tensor<2x512x64xf32>, %v: tensor<2x512x64xf32>) -> tensor<2x512x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %zi = arith.constant 0 : i64
  %true = arith.constant true
  %false = arith.constant false
  %scale = arith.constant 0.125 : f32
  %ea = tensor.empty() : tensor<512xi64>
  %ar = linalg.generic {indexing_maps = [#i1d], iterator_types = ["parallel"]}
      outs(%ea : tensor<512xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<512xi64>
  %em = tensor.empty() : tensor<512x512xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>,
                          affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%ar, %ar : tensor<512xi64>, tensor<512xi64>) outs(%em : tensor<512x512xf32>) {
  ^bb0(%kj: i64, %qi: i64, %out: f32):
    %dif = arith.subi %kj, %qi : i64
    %keep = arith.cmpi sle, %dif, %zi : i64
    %m = arith.select %keep, %zero, %ninf : f32
    linalg.yield %m : f32
  } -> tensor<512x512xf32>
  %e0 = tensor.empty() : tensor<2x512x512xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x512x512xf32>) -> tensor<2x512x512xf32>
  %qk = linalg.batch_matmul indexing_maps = [#mq, #mk, #mo]
      ins(%q, %k : tensor<2x512x64xf32>, tensor<2x512x64xf32>) outs(%f0 : tensor<2x512x512xf32>) -> tensor<2x512x512xf32>
  %e1 = tensor.empty() : tensor<2x512x512xf32>
  %sc = linalg.generic {indexing_maps = [#id, #ij, #id],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%qk, %mask : tensor<2x512x512xf32>, tensor<512x512xf32>) outs(%e1 : tensor<2x512x512xf32>) {
  ^bb0(%x: f32, %m: f32, %out: f32):
    %y = arith.mulf %x, %scale : f32
    %z = arith.addf %y, %m : f32
    linalg.yield %z : f32
  } -> tensor<2x512x512xf32>
  %e2 = tensor.empty() : tensor<2x512x512xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<2x512x512xf32>) outs(%e2 : tensor<2x512x512xf32>) -> tensor<2x512x512xf32>
  %pinf = arith.constant 0x7F800000 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %emn = tensor.empty() : tensor<2x512xf32>
  %fmn = linalg.fill ins(%pinf : f32) outs(%emn : tensor<2x512xf32>) -> tensor<2x512xf32>
  %mn = linalg.generic {indexing_maps = [#id, #row],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sc : tensor<2x512x512xf32>) outs(%fmn : tensor<2x512xf32>) {
  ^bb0(%x: f32, %out: f32):
    %r = arith.minimumf %x, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x512xf32>
  %e4 = tensor.empty() : tensor<2x512x512xf32>
  %ps = linalg.generic {indexing_maps = [#row, #id, #id],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mn, %p : tensor<2x512xf32>, tensor<2x512x512xf32>) outs(%e4 : tensor<2x512x512xf32>) {
  ^bb0(%a: f32, %x: f32, %out: f32):
    %hidden = arith.cmpf oeq, %a, %ninf : f32
    %f = arith.select %hidden, %one, %two : f32
    %y = arith.mulf %x, %f : f32
    linalg.yield %y : f32
  } -> tensor<2x512x512xf32>
  %e3 = tensor.empty() : tensor<2x512x64xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x512x64xf32>) -> tensor<2x512x64xf32>
  %o = linalg.batch_matmul ins(%ps, %v : tensor<2x512x512xf32>, tensor<2x512x64xf32>) outs(%f3 : tensor<2x512x64xf32>) -> tensor<2x512x64xf32>
  return %o : tensor<2x512x64xf32>
}


