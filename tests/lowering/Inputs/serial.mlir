// With strata.parallel = false nothing is outlined (outline_parallel_loops.mlir).
module attributes {strata.parallel = false} {
  func.func @main(%x: memref<512x512xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c512 = arith.constant 512 : index
    scf.parallel (%i, %j) = (%c0, %c0) to (%c512, %c512) step (%c1, %c1) {
      %v = memref.load %x[%i, %j] : memref<512x512xf32>
      memref.store %v, %x[%j, %i] : memref<512x512xf32>
      scf.reduce
    }
    return
  }
}
