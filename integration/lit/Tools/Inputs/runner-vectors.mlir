// Vector-level input: vector.print of floats, integers, nested vectors and
// strings, a scan, a reduction, a transfer read from a tensor.
func.func @entry() {
  %v = arith.constant dense<[1.5, -2.0, 3.25, 4.0]> : vector<4xf32>
  vector.print %v : vector<4xf32>
  %i = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : vector<2x3xi32>
  vector.print %i : vector<2x3xi32>
  %init = arith.constant dense<0.0> : vector<f32>
  %scan:2 = vector.scan <add>, %v, %init {inclusive = true, reduction_dim = 0}
      : vector<4xf32>, vector<f32>
  vector.print %scan#0 : vector<4xf32>
  %sum = vector.reduction <add>, %v : vector<4xf32> into f32
  vector.print %sum : f32
  %t = arith.constant dense<[10.0, 20.0, 30.0, 40.0, 50.0]> : tensor<5xf32>
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  %r = vector.transfer_read %t[%c1], %pad : tensor<5xf32>, vector<4xf32>
  vector.print %r : vector<4xf32>
  vector.print str "done\n"
  return
}
