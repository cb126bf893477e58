// A parallel loop of 96 iterations: more than the tile target unrolls
// (Tile/plugin-run-parallel-loops.mlir).
func.func @many(%x: tensor<96x32xf32>) -> tensor<96x32xf32> {
  %e = tensor.empty() : tensor<96x32xf32>
  %r = scf.forall (%i) in (96) shared_outs(%out = %e) -> (tensor<96x32xf32>) {
    %xr = tensor.extract_slice %x[%i, 0] [1, 32] [1, 1] : tensor<96x32xf32> to tensor<32xf32>
    %orow = tensor.extract_slice %out[%i, 0] [1, 32] [1, 1] : tensor<96x32xf32> to tensor<32xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                         iterator_types = ["parallel"]}
        ins(%xr : tensor<32xf32>) outs(%orow : tensor<32xf32>) {
    ^bb0(%v: f32, %o: f32):
      %t = math.tanh %v : f32
      linalg.yield %t : f32
    } -> tensor<32xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %out[%i, 0] [1, 32] [1, 1] : tensor<32xf32> into tensor<96x32xf32>
    }
  }
  return %r : tensor<96x32xf32>
}
