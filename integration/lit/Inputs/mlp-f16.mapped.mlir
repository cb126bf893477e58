#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
module attributes {strata.hw = #strata.hw<"nvidia-h200", {arch = "sm_90a", clock_hz = 1.830000e+09 : f64, compute = [{count = 1 : i64, name = "chip"}, {count = 132 : i64, name = "sm"}, {count = 4 : i64, name = "warpgroup"}, {count = 4 : i64, name = "warp"}, {count = 32 : i64, name = "lane"}], matrix = [{a = "bf16", acc = "f32", b = "bf16", cycles_per_instruction = 512 : i64, k = 16 : i64, level = "warpgroup", m = 64 : i64, n = 256 : i64, name = "wgmma_m64n256k16_bf16"}, {a = "f16", acc = "f32", b = "f16", cycles_per_instruction = 512 : i64, k = 16 : i64, level = "warpgroup", m = 64 : i64, n = 256 : i64, name = "wgmma_m64n256k16_f16"}, {a = "bf16", acc = "f32", b = "bf16", cycles_per_instruction = 256 : i64, k = 16 : i64, level = "warpgroup", m = 64 : i64, n = 128 : i64, name = "wgmma_m64n128k16_bf16"}, {a = "f16", acc = "f32", b = "f16", cycles_per_instruction = 256 : i64, k = 16 : i64, level = "warpgroup", m = 64 : i64, n = 128 : i64, name = "wgmma_m64n128k16_f16"}, {a = "bf16", acc = "f32", b = "bf16", cycles_per_instruction = 128 : i64, k = 16 : i64, level = "warpgroup", m = 64 : i64, n = 64 : i64, name = "wgmma_m64n64k16_bf16"}, {a = "f16", acc = "f32", b = "f16", cycles_per_instruction = 128 : i64, k = 16 : i64, level = "warpgroup", m = 64 : i64, n = 64 : i64, name = "wgmma_m64n64k16_f16"}, {a = "tf32", acc = "f32", b = "tf32", cycles_per_instruction = 512 : i64, k = 8 : i64, level = "warpgroup", m = 64 : i64, n = 256 : i64, name = "wgmma_m64n256k8_tf32"}, {a = "fp8e4m3", acc = "f32", b = "fp8e4m3", cycles_per_instruction = 512 : i64, k = 32 : i64, level = "warpgroup", m = 64 : i64, n = 256 : i64, name = "wgmma_m64n256k32_fp8e4m3"}, {a = "i8", acc = "i32", b = "i8", cycles_per_instruction = 512 : i64, k = 32 : i64, level = "warpgroup", m = 64 : i64, n = 256 : i64, name = "wgmma_m64n256k32_i8"}, {a = "bf16", acc = "f32", b = "bf16", cycles_per_instruction = 32 : i64, k = 16 : i64, level = "warp", m = 16 : i64, n = 8 : i64, name = "mma_m16n8k16_bf16"}, {a = "f16", acc = "f32", b = "f16", cycles_per_instruction = 32 : i64, k = 16 : i64, level = "warp", m = 16 : i64, n = 8 : i64, name = "mma_m16n8k16_f16"}, {a = "f64", acc = "f64", b = "f64", cycles_per_instruction = 32 : i64, k = 4 : i64, level = "warp", m = 8 : i64, n = 8 : i64, name = "mma_m8n8k4_f64"}], memory = [{alignment_bytes = 128 : i64, bandwidth_bytes_per_s = 4.800000e+12 : f64, banks = 12 : i64, capacity_bytes = 150754820096 : i64, kind = "dram", latency_cycles = 500 : i64, name = "hbm", owner = "chip"}, {alignment_bytes = 128 : i64, bandwidth_bytes_per_s = 5.500000e+12 : f64, capacity_bytes = 52428800 : i64, kind = "cache", latency_cycles = 260 : i64, name = "l2", owner = "chip"}, {alignment_bytes = 128 : i64, bandwidth_bytes_per_s = 2.342400e+11 : f64, banks = 32 : i64, capacity_bytes = 233472 : i64, engine = {bytes_per_cycle = 64 : i64, count = 1 : i64, kind = "tma", max_box_elements = 256 : i64, multicast = true, setup_latency_cycles = 100 : i64, swizzle_bytes = [32, 64, 128]}, kind = "scratchpad", latency_cycles = 30 : i64, name = "shared", owner = "sm"}], name = "nvidia-h200", peaks_flops = {bf16 = 9.894000e+14 : f64, f16 = 9.894000e+14 : f64, f32 = 6.700000e+13 : f64, f64 = 6.700000e+13 : f64, fp8e4m3 = 1.978900e+15 : f64, i8 = 1.978900e+15 : f64, tf32 = 4.947000e+14 : f64}, plugin = "nvidia", source = ["NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022): 132 SMs on SXM5, 4 SM sub-partitions with one fourth-generation tensor core each, 128 FP32 and 64 FP64 lanes per SM, 228 KB shared memory per SM (227 KB per block), 50 MB L2, Tensor Memory Accelerator, thread block clusters, one 1024-bit HBM interface per stack driven by two 512-bit controllers", "NVIDIA H200 datasheet (SXM): 141 GB HBM3e at 4.8 TB/s on six stacks, so twelve 512-bit controllers (the driver reports 143771 MiB); same GH100 compute as H100 SXM, same dense peaks FP64 34, FP64 tensor 67, FP32 67, TF32 494.7, BF16/FP16 989.4, FP8 1978.9 TFLOP/s. The tensor peaks equal 132 SMs x 4096 dense FLOP/clk (BF16) x 1.83 GHz; the FP32/FP64 vector peaks assume the 1.98 GHz maximum boost", "PTX ISA 8.0, section 9.7.15 (asynchronous warpgroup-level matrix multiply-accumulate): wgmma.mma_async shapes m64nNk16 (f16, bf16), m64nNk8 (tf32), m64nNk32 (e4m3, e5m2, s8), N a multiple of 8 up to 256; requires sm_90a", "CUDA C++ Programming Guide, compute capability 9.0 tables: 32 shared memory banks, 65536 registers per SM, 255 registers per thread, portable cluster size 8", "L2 bandwidth, TMA rate and latencies are rounded from Luo et al., Benchmarking and Dissecting the Nvidia Hopper GPU Architecture (IPDPS 2024); mma.sync on sm_90 reaches about half of the wgmma rate there"], summary = "NVIDIA H200 SXM 141 GB (GH100): 132 SMs, HBM3e at 4.8 TB/s; clock is the 1.83 GHz at which the datasheet's tensor peaks hold", target_options = {async_copy = "tma", max_cluster_blocks = 8 : i64, max_shared_bytes_per_block = 232448 : i64, max_threads_per_block = 1024 : i64, registers_per_sm = 65536 : i64, threads_per_warp = 32 : i64, warps_per_warpgroup = 4 : i64}, vector = {element_types = ["f64", "f32", "f16", "bf16"], fma_latency_cycles = 4 : i64, fma_pipes = 1 : i64, level = "sm", registers = 255 : i64, width_bits = 4096 : i64}}>} {
  func.func @mlp_f16(%arg0: memref<512x1024xf16>, %arg1: memref<1024x2048xf16>, %arg2: memref<2048xf32>, %arg3: memref<512x2048xf32>) {
    %c4096 = arith.constant 4096 : index
    %c56 = arith.constant 56 : index
    %c48 = arith.constant 48 : index
    %c40 = arith.constant 40 : index
    %c24 = arith.constant 24 : index
    %c16 = arith.constant 16 : index
    %c8192 = arith.constant 8192 : index
    %c2048 = arith.constant 2048 : index
    %cst = arith.constant 0.000000e+00 : f16
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c0 = arith.constant 0 : index
    %cst_0 = arith.constant dense<0.000000e+00> : vector<16x8xf32>
    %c64 = arith.constant 64 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %c32 = arith.constant 32 : index
    %cst_1 = arith.constant 0.707106769 : f32
    %cst_2 = arith.constant 1.000000e+00 : f32
    %cst_3 = arith.constant 5.000000e-01 : f32
    scf.forall (%arg4, %arg5) in (16, 16) {
      %0 = arith.muli %arg4, %c32 : index
      %1 = arith.muli %arg5, %c128 : index
      %alloc = memref.alloc() : memref<32x72xf16, #strata.mem<"shared">>
      %alloc_4 = memref.alloc() : memref<64x136xf16, #strata.mem<"shared">>
      %alloc_5 = memref.alloc() : memref<32x72xf16, #strata.mem<"shared">>
      %alloc_6 = memref.alloc() : memref<64x136xf16, #strata.mem<"shared">>
      %alloc_7 = memref.alloc() : memref<32x128xf32, #strata.mem<"shared">>
      scf.forall (%arg6) in (2) {
        %2 = arith.divui %arg6, %c2 : index
        %3 = arith.muli %2, %c32 : index
        %4 = arith.remui %arg6, %c2 : index
        %5 = arith.muli %4, %c64 : index
        %6:16 = scf.for %arg7 = %c0 to %c8 step %c1 iter_args(%arg8 = %cst_0, %arg9 = %cst_0, %arg10 = %cst_0, %arg11 = %cst_0, %arg12 = %cst_0, %arg13 = %cst_0, %arg14 = %cst_0, %arg15 = %cst_0, %arg16 = %cst_0, %arg17 = %cst_0, %arg18 = %cst_0, %arg19 = %cst_0, %arg20 = %cst_0, %arg21 = %cst_0, %arg22 = %cst_0, %arg23 = %cst_0) -> (vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>) {
          %15 = arith.muli %arg7, %c128 : index
          scf.forall (%arg24) in (32) {
            %233 = arith.muli %arg6, %c32 : index
            %234 = arith.addi %233, %arg24 : index
            scf.for %arg25 = %234 to %c2048 step %c64 {
              %235 = arith.divui %arg25, %c64 : index
              %236 = arith.remui %arg25, %c64 : index
              %237 = arith.addi %0, %235 : index
              %238 = arith.addi %15, %236 : index
              %239 = memref.load %arg0[%237, %238] : memref<512x1024xf16>
              memref.store %239, %alloc[%235, %236] : memref<32x72xf16, #strata.mem<"shared">>
            }
            scf.for %arg25 = %234 to %c8192 step %c64 {
              %235 = arith.divui %arg25, %c128 : index
              %236 = arith.remui %arg25, %c128 : index
              %237 = arith.addi %15, %235 : index
              %238 = arith.addi %1, %236 : index
              %239 = memref.load %arg1[%237, %238] : memref<1024x2048xf16>
              memref.store %239, %alloc_4[%235, %236] : memref<64x136xf16, #strata.mem<"shared">>
            }
          } {mapping = [#strata.grid<"lane">]}
          gpu.barrier
          %16 = vector.transfer_read %alloc[%3, %c0], %cst {in_bounds = [true, true]} : memref<32x72xf16, #strata.mem<"shared">>, vector<16x16xf16>
          %17 = arith.addi %3, %c16 : index
          %18 = vector.transfer_read %alloc[%17, %c0], %cst {in_bounds = [true, true]} : memref<32x72xf16, #strata.mem<"shared">>, vector<16x16xf16>
          %19 = vector.transfer_read %alloc_4[%c0, %5], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %20 = arith.addi %5, %c8 : index
          %21 = vector.transfer_read %alloc_4[%c0, %20], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %22 = arith.addi %5, %c16 : index
          %23 = vector.transfer_read %alloc_4[%c0, %22], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %24 = arith.addi %5, %c24 : index
          %25 = vector.transfer_read %alloc_4[%c0, %24], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %26 = arith.addi %5, %c32 : index
          %27 = vector.transfer_read %alloc_4[%c0, %26], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %28 = arith.addi %5, %c40 : index
          %29 = vector.transfer_read %alloc_4[%c0, %28], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %30 = arith.addi %5, %c48 : index
          %31 = vector.transfer_read %alloc_4[%c0, %30], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %32 = arith.addi %5, %c56 : index
          %33 = vector.transfer_read %alloc_4[%c0, %32], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %34 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %16, %19, %arg8 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %35 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %16, %21, %arg9 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %36 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %16, %23, %arg10 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %37 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %16, %25, %arg11 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %38 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %16, %27, %arg12 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %39 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %16, %29, %arg13 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %40 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %16, %31, %arg14 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %41 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %16, %33, %arg15 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %42 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %18, %19, %arg16 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %43 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %18, %21, %arg17 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %44 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %18, %23, %arg18 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %45 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %18, %25, %arg19 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %46 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %18, %27, %arg20 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %47 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %18, %29, %arg21 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %48 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %18, %31, %arg22 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %49 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %18, %33, %arg23 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %50 = vector.transfer_read %alloc[%3, %c16], %cst {in_bounds = [true, true]} : memref<32x72xf16, #strata.mem<"shared">>, vector<16x16xf16>
          %51 = vector.transfer_read %alloc[%17, %c16], %cst {in_bounds = [true, true]} : memref<32x72xf16, #strata.mem<"shared">>, vector<16x16xf16>
          %52 = vector.transfer_read %alloc_4[%c16, %5], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %53 = vector.transfer_read %alloc_4[%c16, %20], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %54 = vector.transfer_read %alloc_4[%c16, %22], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %55 = vector.transfer_read %alloc_4[%c16, %24], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %56 = vector.transfer_read %alloc_4[%c16, %26], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %57 = vector.transfer_read %alloc_4[%c16, %28], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %58 = vector.transfer_read %alloc_4[%c16, %30], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %59 = vector.transfer_read %alloc_4[%c16, %32], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %60 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %50, %52, %34 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %61 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %50, %53, %35 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %62 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %50, %54, %36 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %63 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %50, %55, %37 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %64 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %50, %56, %38 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %65 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %50, %57, %39 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %66 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %50, %58, %40 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %67 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %50, %59, %41 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %68 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %51, %52, %42 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %69 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %51, %53, %43 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %70 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %51, %54, %44 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %71 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %51, %55, %45 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %72 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %51, %56, %46 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %73 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %51, %57, %47 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %74 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %51, %58, %48 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %75 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %51, %59, %49 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %76 = vector.transfer_read %alloc[%3, %c32], %cst {in_bounds = [true, true]} : memref<32x72xf16, #strata.mem<"shared">>, vector<16x16xf16>
          %77 = vector.transfer_read %alloc[%17, %c32], %cst {in_bounds = [true, true]} : memref<32x72xf16, #strata.mem<"shared">>, vector<16x16xf16>
          %78 = vector.transfer_read %alloc_4[%c32, %5], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %79 = vector.transfer_read %alloc_4[%c32, %20], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %80 = vector.transfer_read %alloc_4[%c32, %22], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %81 = vector.transfer_read %alloc_4[%c32, %24], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %82 = vector.transfer_read %alloc_4[%c32, %26], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %83 = vector.transfer_read %alloc_4[%c32, %28], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %84 = vector.transfer_read %alloc_4[%c32, %30], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %85 = vector.transfer_read %alloc_4[%c32, %32], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %86 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %76, %78, %60 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %87 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %76, %79, %61 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %88 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %76, %80, %62 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %89 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %76, %81, %63 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %90 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %76, %82, %64 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %91 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %76, %83, %65 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %92 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %76, %84, %66 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %93 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %76, %85, %67 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %94 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %77, %78, %68 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %95 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %77, %79, %69 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %96 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %77, %80, %70 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %97 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %77, %81, %71 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %98 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %77, %82, %72 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %99 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %77, %83, %73 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %100 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %77, %84, %74 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %101 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %77, %85, %75 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %102 = vector.transfer_read %alloc[%3, %c48], %cst {in_bounds = [true, true]} : memref<32x72xf16, #strata.mem<"shared">>, vector<16x16xf16>
          %103 = vector.transfer_read %alloc[%17, %c48], %cst {in_bounds = [true, true]} : memref<32x72xf16, #strata.mem<"shared">>, vector<16x16xf16>
          %104 = vector.transfer_read %alloc_4[%c48, %5], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %105 = vector.transfer_read %alloc_4[%c48, %20], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %106 = vector.transfer_read %alloc_4[%c48, %22], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %107 = vector.transfer_read %alloc_4[%c48, %24], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %108 = vector.transfer_read %alloc_4[%c48, %26], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %109 = vector.transfer_read %alloc_4[%c48, %28], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %110 = vector.transfer_read %alloc_4[%c48, %30], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %111 = vector.transfer_read %alloc_4[%c48, %32], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %112 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %102, %104, %86 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %113 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %102, %105, %87 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %114 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %102, %106, %88 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %115 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %102, %107, %89 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %116 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %102, %108, %90 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %117 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %102, %109, %91 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %118 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %102, %110, %92 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %119 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %102, %111, %93 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %120 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %103, %104, %94 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %121 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %103, %105, %95 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %122 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %103, %106, %96 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %123 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %103, %107, %97 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %124 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %103, %108, %98 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %125 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %103, %109, %99 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %126 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %103, %110, %100 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %127 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %103, %111, %101 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %128 = arith.addi %15, %c64 : index
          scf.forall (%arg24) in (32) {
            %233 = arith.muli %arg6, %c32 : index
            %234 = arith.addi %233, %arg24 : index
            scf.for %arg25 = %234 to %c2048 step %c64 {
              %235 = arith.divui %arg25, %c64 : index
              %236 = arith.remui %arg25, %c64 : index
              %237 = arith.addi %0, %235 : index
              %238 = arith.addi %128, %236 : index
              %239 = memref.load %arg0[%237, %238] : memref<512x1024xf16>
              memref.store %239, %alloc_5[%235, %236] : memref<32x72xf16, #strata.mem<"shared">>
            }
            scf.for %arg25 = %234 to %c8192 step %c64 {
              %235 = arith.divui %arg25, %c128 : index
              %236 = arith.remui %arg25, %c128 : index
              %237 = arith.addi %128, %235 : index
              %238 = arith.addi %1, %236 : index
              %239 = memref.load %arg1[%237, %238] : memref<1024x2048xf16>
              memref.store %239, %alloc_6[%235, %236] : memref<64x136xf16, #strata.mem<"shared">>
            }
          } {mapping = [#strata.grid<"lane">]}
          gpu.barrier
          %129 = vector.transfer_read %alloc_5[%3, %c0], %cst {in_bounds = [true, true]} : memref<32x72xf16, #strata.mem<"shared">>, vector<16x16xf16>
          %130 = vector.transfer_read %alloc_5[%17, %c0], %cst {in_bounds = [true, true]} : memref<32x72xf16, #strata.mem<"shared">>, vector<16x16xf16>
          %131 = vector.transfer_read %alloc_6[%c0, %5], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %132 = vector.transfer_read %alloc_6[%c0, %20], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %133 = vector.transfer_read %alloc_6[%c0, %22], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %134 = vector.transfer_read %alloc_6[%c0, %24], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %135 = vector.transfer_read %alloc_6[%c0, %26], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %136 = vector.transfer_read %alloc_6[%c0, %28], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %137 = vector.transfer_read %alloc_6[%c0, %30], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %138 = vector.transfer_read %alloc_6[%c0, %32], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %139 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %129, %131, %112 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %140 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %129, %132, %113 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %141 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %129, %133, %114 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %142 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %129, %134, %115 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %143 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %129, %135, %116 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %144 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %129, %136, %117 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %145 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %129, %137, %118 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %146 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %129, %138, %119 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %147 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %130, %131, %120 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %148 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %130, %132, %121 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %149 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %130, %133, %122 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %150 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %130, %134, %123 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %151 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %130, %135, %124 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %152 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %130, %136, %125 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %153 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %130, %137, %126 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %154 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %130, %138, %127 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %155 = vector.transfer_read %alloc_5[%3, %c16], %cst {in_bounds = [true, true]} : memref<32x72xf16, #strata.mem<"shared">>, vector<16x16xf16>
          %156 = vector.transfer_read %alloc_5[%17, %c16], %cst {in_bounds = [true, true]} : memref<32x72xf16, #strata.mem<"shared">>, vector<16x16xf16>
          %157 = vector.transfer_read %alloc_6[%c16, %5], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %158 = vector.transfer_read %alloc_6[%c16, %20], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %159 = vector.transfer_read %alloc_6[%c16, %22], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %160 = vector.transfer_read %alloc_6[%c16, %24], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %161 = vector.transfer_read %alloc_6[%c16, %26], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %162 = vector.transfer_read %alloc_6[%c16, %28], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %163 = vector.transfer_read %alloc_6[%c16, %30], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %164 = vector.transfer_read %alloc_6[%c16, %32], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %165 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %155, %157, %139 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %166 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %155, %158, %140 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %167 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %155, %159, %141 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %168 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %155, %160, %142 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %169 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %155, %161, %143 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %170 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %155, %162, %144 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %171 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %155, %163, %145 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %172 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %155, %164, %146 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %173 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %156, %157, %147 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %174 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %156, %158, %148 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %175 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %156, %159, %149 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %176 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %156, %160, %150 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %177 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %156, %161, %151 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %178 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %156, %162, %152 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %179 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %156, %163, %153 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %180 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %156, %164, %154 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %181 = vector.transfer_read %alloc_5[%3, %c32], %cst {in_bounds = [true, true]} : memref<32x72xf16, #strata.mem<"shared">>, vector<16x16xf16>
          %182 = vector.transfer_read %alloc_5[%17, %c32], %cst {in_bounds = [true, true]} : memref<32x72xf16, #strata.mem<"shared">>, vector<16x16xf16>
          %183 = vector.transfer_read %alloc_6[%c32, %5], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %184 = vector.transfer_read %alloc_6[%c32, %20], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %185 = vector.transfer_read %alloc_6[%c32, %22], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %186 = vector.transfer_read %alloc_6[%c32, %24], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %187 = vector.transfer_read %alloc_6[%c32, %26], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %188 = vector.transfer_read %alloc_6[%c32, %28], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %189 = vector.transfer_read %alloc_6[%c32, %30], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %190 = vector.transfer_read %alloc_6[%c32, %32], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %191 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %181, %183, %165 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %192 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %181, %184, %166 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %193 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %181, %185, %167 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %194 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %181, %186, %168 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %195 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %181, %187, %169 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %196 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %181, %188, %170 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %197 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %181, %189, %171 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %198 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %181, %190, %172 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %199 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %182, %183, %173 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %200 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %182, %184, %174 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %201 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %182, %185, %175 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %202 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %182, %186, %176 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %203 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %182, %187, %177 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %204 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %182, %188, %178 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %205 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %182, %189, %179 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %206 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %182, %190, %180 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %207 = vector.transfer_read %alloc_5[%3, %c48], %cst {in_bounds = [true, true]} : memref<32x72xf16, #strata.mem<"shared">>, vector<16x16xf16>
          %208 = vector.transfer_read %alloc_5[%17, %c48], %cst {in_bounds = [true, true]} : memref<32x72xf16, #strata.mem<"shared">>, vector<16x16xf16>
          %209 = vector.transfer_read %alloc_6[%c48, %5], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %210 = vector.transfer_read %alloc_6[%c48, %20], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %211 = vector.transfer_read %alloc_6[%c48, %22], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %212 = vector.transfer_read %alloc_6[%c48, %24], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %213 = vector.transfer_read %alloc_6[%c48, %26], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %214 = vector.transfer_read %alloc_6[%c48, %28], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %215 = vector.transfer_read %alloc_6[%c48, %30], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %216 = vector.transfer_read %alloc_6[%c48, %32], %cst {in_bounds = [true, true]} : memref<64x136xf16, #strata.mem<"shared">>, vector<16x8xf16>
          %217 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %207, %209, %191 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %218 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %207, %210, %192 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %219 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %207, %211, %193 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %220 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %207, %212, %194 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %221 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %207, %213, %195 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %222 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %207, %214, %196 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %223 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %207, %215, %197 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %224 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %207, %216, %198 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %225 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %208, %209, %199 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %226 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %208, %210, %200 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %227 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %208, %211, %201 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %228 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %208, %212, %202 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %229 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %208, %213, %203 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %230 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %208, %214, %204 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %231 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %208, %215, %205 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          %232 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %208, %216, %206 {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
          scf.yield %217, %218, %219, %220, %221, %222, %223, %224, %225, %226, %227, %228, %229, %230, %231, %232 : vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>, vector<16x8xf32>
        }
        vector.transfer_write %6#0, %alloc_7[%3, %5] {in_bounds = [true, true]} : vector<16x8xf32>, memref<32x128xf32, #strata.mem<"shared">>
        %7 = arith.addi %5, %c8 : index
        vector.transfer_write %6#1, %alloc_7[%3, %7] {in_bounds = [true, true]} : vector<16x8xf32>, memref<32x128xf32, #strata.mem<"shared">>
        %8 = arith.addi %5, %c16 : index
        vector.transfer_write %6#2, %alloc_7[%3, %8] {in_bounds = [true, true]} : vector<16x8xf32>, memref<32x128xf32, #strata.mem<"shared">>
        %9 = arith.addi %5, %c24 : index
        vector.transfer_write %6#3, %alloc_7[%3, %9] {in_bounds = [true, true]} : vector<16x8xf32>, memref<32x128xf32, #strata.mem<"shared">>
        %10 = arith.addi %5, %c32 : index
        vector.transfer_write %6#4, %alloc_7[%3, %10] {in_bounds = [true, true]} : vector<16x8xf32>, memref<32x128xf32, #strata.mem<"shared">>
        %11 = arith.addi %5, %c40 : index
        vector.transfer_write %6#5, %alloc_7[%3, %11] {in_bounds = [true, true]} : vector<16x8xf32>, memref<32x128xf32, #strata.mem<"shared">>
        %12 = arith.addi %5, %c48 : index
        vector.transfer_write %6#6, %alloc_7[%3, %12] {in_bounds = [true, true]} : vector<16x8xf32>, memref<32x128xf32, #strata.mem<"shared">>
        %13 = arith.addi %5, %c56 : index
        vector.transfer_write %6#7, %alloc_7[%3, %13] {in_bounds = [true, true]} : vector<16x8xf32>, memref<32x128xf32, #strata.mem<"shared">>
        %14 = arith.addi %3, %c16 : index
        vector.transfer_write %6#8, %alloc_7[%14, %5] {in_bounds = [true, true]} : vector<16x8xf32>, memref<32x128xf32, #strata.mem<"shared">>
        vector.transfer_write %6#9, %alloc_7[%14, %7] {in_bounds = [true, true]} : vector<16x8xf32>, memref<32x128xf32, #strata.mem<"shared">>
        vector.transfer_write %6#10, %alloc_7[%14, %8] {in_bounds = [true, true]} : vector<16x8xf32>, memref<32x128xf32, #strata.mem<"shared">>
        vector.transfer_write %6#11, %alloc_7[%14, %9] {in_bounds = [true, true]} : vector<16x8xf32>, memref<32x128xf32, #strata.mem<"shared">>
        vector.transfer_write %6#12, %alloc_7[%14, %10] {in_bounds = [true, true]} : vector<16x8xf32>, memref<32x128xf32, #strata.mem<"shared">>
        vector.transfer_write %6#13, %alloc_7[%14, %11] {in_bounds = [true, true]} : vector<16x8xf32>, memref<32x128xf32, #strata.mem<"shared">>
        vector.transfer_write %6#14, %alloc_7[%14, %12] {in_bounds = [true, true]} : vector<16x8xf32>, memref<32x128xf32, #strata.mem<"shared">>
        vector.transfer_write %6#15, %alloc_7[%14, %13] {in_bounds = [true, true]} : vector<16x8xf32>, memref<32x128xf32, #strata.mem<"shared">>
        gpu.barrier
        scf.forall (%arg7) in (32) {
          %15 = arith.muli %arg6, %c32 : index
          %16 = arith.addi %15, %arg7 : index
          scf.for %arg8 = %16 to %c4096 step %c64 {
            %17 = arith.divui %arg8, %c128 : index
            %18 = arith.remui %arg8, %c128 : index
            %19 = arith.addi %0, %17 : index
            %20 = arith.addi %1, %18 : index
            %21 = memref.load %alloc_7[%17, %18] : memref<32x128xf32, #strata.mem<"shared">>
            %22 = memref.load %arg2[%20] : memref<2048xf32>
            %23 = arith.addf %21, %22 : f32
            %24 = arith.mulf %23, %cst_1 : f32
            %25 = math.erf %24 : f32
            %26 = arith.addf %25, %cst_2 : f32
            %27 = arith.mulf %23, %cst_3 : f32
            %28 = arith.mulf %27, %26 : f32
            memref.store %28, %arg3[%19, %20] : memref<512x2048xf32>
          }
        } {mapping = [#strata.grid<"lane">]}
      } {mapping = [#strata.grid<"warp">]}
    } {mapping = [#strata.grid<"sm", 1>, #strata.grid<"sm">], strata.schedule = #strata.schedule<{accumulator_registers = 64 : i64, block = ["sm", 32, 128, 64], buffers = 2 : i64, fragment = [16, 8, 16], grid = [16, 16], group_tile = [32, 64], groups = ["warp", 1, 2], intrinsic = "mma_m16n8k16_f16", lanes = 64 : i64, pad = 8 : i64, scratchpad = ["shared", 60416]}>}
    return
  }
}

