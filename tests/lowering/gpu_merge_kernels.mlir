// RUN: strata-opt --strata-gpu-merge-kernels %s | FileCheck %s
// REQUIRES: cuda-target

// Two outlined kernels, each in its own module and named after the launching function, become
// two functions of one module (one cubin), named after their modules; launches follow.
// CHECK:      gpu.launch_func @kernels::@main_kernel blocks
// CHECK:      gpu.launch_func @kernels::@main_kernel_0 blocks
// CHECK:      gpu.module @kernels {
// CHECK-NEXT:   gpu.func @main_kernel(
// CHECK:        gpu.func @main_kernel_0(
// CHECK-NOT:  gpu.module
module attributes {gpu.container_module} {
  func.func @main(%x: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @main_kernel::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%x : memref<4xf32>)
    gpu.launch_func @main_kernel_0::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%x : memref<4xf32>)
    return
  }
  gpu.module @main_kernel {
    gpu.func @main_kernel(%arg0: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @main_kernel_0 {
    gpu.func @main_kernel(%arg0: memref<4xf32>) kernel {
      gpu.return
    }
  }
}
