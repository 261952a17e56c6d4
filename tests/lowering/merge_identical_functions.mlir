// --strata-merge-identical-functions: private functions equal but for their names become the
// first of them; functions that differ in a constant, an attribute, an argument type or which
// function they call stay; a wrapper naming merged functions merges in the next round; public
// functions and declarations are never merged.
// RUN: strata-opt --strata-merge-identical-functions %s | FileCheck %s

// CHECK-LABEL: func.func @main
// CHECK-NEXT:    call @body_a(%arg0) :
// CHECK-NEXT:    call @body_a(%arg0) :
// CHECK-NEXT:    call @body_a(%arg0) :
// CHECK-NEXT:    call @other_constant(%arg0) :
// CHECK-NEXT:    call @other_attribute(%arg0) :
// CHECK-NEXT:    call @other_type(%arg1) :
// CHECK-NEXT:    call @wrap_a(%arg0) :
// CHECK-NEXT:    call @wrap_a(%arg0) :
// CHECK-NEXT:    call @wrap_other(%arg0) :
// CHECK-NEXT:    call @public_copy(%arg0) :
func.func @main(%arg0: memref<8xf32>, %arg1: memref<8xf64>) {
  call @body_a(%arg0) : (memref<8xf32>) -> ()
  call @body_b(%arg0) : (memref<8xf32>) -> ()
  call @body_c(%arg0) : (memref<8xf32>) -> ()
  call @other_constant(%arg0) : (memref<8xf32>) -> ()
  call @other_attribute(%arg0) : (memref<8xf32>) -> ()
  call @other_type(%arg1) : (memref<8xf64>) -> ()
  call @wrap_a(%arg0) : (memref<8xf32>) -> ()
  call @wrap_b(%arg0) : (memref<8xf32>) -> ()
  call @wrap_other(%arg0) : (memref<8xf32>) -> ()
  call @public_copy(%arg0) : (memref<8xf32>) -> ()
  return
}

// CHECK:     func.func private @body_a(
// CHECK-NOT: func.func private @body_b(
// CHECK-NOT: func.func private @body_c(
func.func private @body_a(%m: memref<8xf32>) attributes {strata.parallel_grain = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %x = memref.load %m[%i] : memref<8xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %m[%i] : memref<8xf32>
    scf.reduce
  }
  return
}

// Another name, other SSA names, other locations: the same function.
func.func private @body_b(%buf: memref<8xf32>) attributes {strata.parallel_grain = 64 : i64} {
  %lo = arith.constant 0 : index
  %hi = arith.constant 8 : index
  %step = arith.constant 1 : index
  %k = arith.constant 2.0 : f32
  scf.parallel (%j) = (%lo) to (%hi) step (%step) {
    %v = memref.load %buf[%j] : memref<8xf32> loc("elsewhere.cc":3:4)
    %w = arith.mulf %v, %k : f32
    memref.store %w, %buf[%j] : memref<8xf32>
    scf.reduce
  }
  return
}

func.func private @body_c(%m: memref<8xf32>) attributes {strata.parallel_grain = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %x = memref.load %m[%i] : memref<8xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %m[%i] : memref<8xf32>
    scf.reduce
  }
  return
}

// CHECK: func.func private @other_constant(
func.func private @other_constant(%m: memref<8xf32>) attributes {strata.parallel_grain = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %three = arith.constant 3.0 : f32
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %x = memref.load %m[%i] : memref<8xf32>
    %y = arith.mulf %x, %three : f32
    memref.store %y, %m[%i] : memref<8xf32>
    scf.reduce
  }
  return
}

// CHECK: func.func private @other_attribute(
func.func private @other_attribute(%m: memref<8xf32>) attributes {strata.parallel_grain = 16 : i64} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %x = memref.load %m[%i] : memref<8xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %m[%i] : memref<8xf32>
    scf.reduce
  }
  return
}

// CHECK: func.func private @other_type(
func.func private @other_type(%m: memref<8xf64>) attributes {strata.parallel_grain = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f64
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %x = memref.load %m[%i] : memref<8xf64>
    %y = arith.mulf %x, %two : f64
    memref.store %y, %m[%i] : memref<8xf64>
    scf.reduce
  }
  return
}

// Wrappers naming @body_a and @body_b: equal once the bodies merged.
// CHECK:     func.func private @wrap_a(
// CHECK-NOT: func.func private @wrap_b(
func.func private @wrap_a(%m: memref<8xf32>) attributes {strata.gemm_epilogue_of = @body_a} {
  call @body_a(%m) : (memref<8xf32>) -> ()
  return
}
func.func private @wrap_b(%m: memref<8xf32>) attributes {strata.gemm_epilogue_of = @body_b} {
  call @body_b(%m) : (memref<8xf32>) -> ()
  return
}
// CHECK: func.func private @wrap_other(
func.func private @wrap_other(%m: memref<8xf32>) attributes {strata.gemm_epilogue_of = @other_constant} {
  call @other_constant(%m) : (memref<8xf32>) -> ()
  return
}

// Public: kept, though equal to @body_a.
// CHECK: func.func @public_copy(
func.func @public_copy(%m: memref<8xf32>) attributes {strata.parallel_grain = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %x = memref.load %m[%i] : memref<8xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %m[%i] : memref<8xf32>
    scf.reduce
  }
  return
}

// Declarations are never merged (nothing to compile).
// CHECK: func.func private @decl_a(memref<8xf32>)
// CHECK: func.func private @decl_b(memref<8xf32>)
func.func private @decl_a(memref<8xf32>)
func.func private @decl_b(memref<8xf32>)
