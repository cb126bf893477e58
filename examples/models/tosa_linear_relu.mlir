// TOSA linear layer with ReLU: y = clamp(x * W + b, 0, +max).
// x: tensor<1x64x256xf32>, W: tensor<1x256x128xf32>, b: tensor<1x1x128xf32>
//   -> y: tensor<1x64x128xf32>.
func.func @tosa_linear_relu(%x: tensor<1x64x256xf32>, %w: tensor<1x256x128xf32>, %b: tensor<1x1x128xf32>) -> tensor<1x64x128xf32> {
  %a_zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %b_zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %mm = tosa.matmul %x, %w, %a_zp, %b_zp
      : (tensor<1x64x256xf32>, tensor<1x256x128xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x128xf32>
  %biased = tosa.add %mm, %b : (tensor<1x64x128xf32>, tensor<1x1x128xf32>) -> tensor<1x64x128xf32>
  %y = tosa.clamp %biased {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32}
      : (tensor<1x64x128xf32>) -> tensor<1x64x128xf32>
  return %y : tensor<1x64x128xf32>
}
