// --strata-fuse: which ops share a strata.fusion region (one loop nest), and which must not.
// RUN: strata-opt --split-input-file --strata-fuse=dot-epilogue-types=f32,f64 %s | FileCheck %s
// RUN: strata-opt --split-input-file --strata-fuse="print-decisions dot-epilogue-types=f32,f64" %s 2>&1 >/dev/null | FileCheck %s --check-prefix=LOG
// Without dot-epilogue-types (a target whose GEMM takes no epilogue) a dot is opaque: the
// bias add and relu are a loop of their own.
// RUN: strata-opt --split-input-file --strata-fuse %s | FileCheck %s --check-prefix=NOEPI

// The decisions and their reasons.
// LOG-LABEL: strata-fuse: @expensive_producer
// LOG:       materialize %3 (strata.exponential): expensive, 2 consumers
// LOG:       inline %2 (strata.multiply) into 2 regions (cheap)
// LOG:       merge group of %3 (strata.exponential) into the group of %4 (strata.add): it reads the value in the same loop (multi-output)
// LOG-LABEL: strata-fuse: @softmax
// LOG:       materialize %5 (strata.exponential): expensive, 2 consumers
// LOG:       fusion (input, 4 ops): %5 (strata.exponential), %6 (strata.reduce)
// LOG-LABEL: strata-fuse: @siblings
// LOG:       merge sibling groups of %2 (strata.reduce) and %4 (strata.reduce): both read %arg0 (multi-output)
// LOG:       merge group of %5 (strata.divide) into the group of %2 (strata.reduce): it computes on the reduced values (reduction epilogue)
// LOG-LABEL: strata-fuse: @dot_epilogue
// LOG:       dot %1 (strata.dot_general): epilogue strata.add, strata.maximum runs on each output block
// LOG-LABEL: strata-fuse: @dot_epilogue_escapes
// LOG:       dot %1 (strata.dot_general): epilogue strata.add runs on each output block
// LOG-NOT:   strata-fuse: @off


// An elementwise chain with the broadcast, convert and transpose that feed it: one loop region.
// CHECK-LABEL: func.func @chain
// CHECK-NEXT:    %[[R:.*]] = strata.fusion(%arg0, %arg1, %arg2) {kind = "loop"}
// CHECK:           strata.broadcast_in_dim
// CHECK:           strata.convert
// CHECK:           strata.transpose
// CHECK:           strata.add
// CHECK:           strata.multiply
// CHECK:           strata.subtract
// CHECK:           %[[M:.*]] = strata.maximum
// CHECK-NEXT:      strata.return %[[M]]
// CHECK:         return %[[R]]
func.func @chain(%x: tensor<4x8xf32>, %b: tensor<8xf32>, %i: tensor<8x4xi32>) -> tensor<4x8xf32> {
  %c = strata.constant dense<2.0> : tensor<4x8xf32>
  %bb = strata.broadcast_in_dim %b, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
  %f = strata.convert %i : (tensor<8x4xi32>) -> tensor<8x4xf32>
  %t = strata.transpose %f, dims = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %0 = strata.add %x, %bb : tensor<4x8xf32>
  %1 = strata.multiply %0, %c : tensor<4x8xf32>
  %2 = strata.subtract %1, %t : tensor<4x8xf32>
  %3 = strata.maximum %2, %x : tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

// -----

// An expensive producer (exp) with two consumers is computed once: it is stored by the loop of
// the consumer of its own shape, and the broadcasting consumer reads it from memory. A cheap
// producer (the multiply) is recomputed in both consumers.
// CHECK-LABEL: func.func @expensive_producer
// CHECK:         %[[A:.*]]:2 = strata.fusion(%arg0) {kind = "loop"}
// CHECK:           strata.multiply
// CHECK:           %[[E:.*]] = strata.exponential
// CHECK:           %[[S:.*]] = strata.add %[[E]]
// CHECK:           strata.return %[[E]], %[[S]]
// CHECK:         %[[B:.*]] = strata.fusion(%arg1, %[[A]]#0, %arg0) {kind = "loop"}
// CHECK-NOT:       strata.exponential
// CHECK:           strata.multiply
// CHECK:         return %[[A]]#1, %[[B]]
func.func @expensive_producer(%x: tensor<4xf32>, %y: tensor<3x4xf32>) -> (tensor<4xf32>, tensor<3x4xf32>) {
  %one = strata.constant dense<1.0> : tensor<4xf32>
  %two = strata.constant dense<2.0> : tensor<4xf32>
  %m = strata.multiply %x, %two : tensor<4xf32>
  %e = strata.exponential %m : tensor<4xf32>
  %a = strata.add %e, %one : tensor<4xf32>
  %be = strata.broadcast_in_dim %e, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
  %bm = strata.broadcast_in_dim %m, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
  %p = strata.multiply %be, %y : tensor<3x4xf32>
  %q = strata.add %p, %bm : tensor<3x4xf32>
  return %a, %q : tensor<4xf32>, tensor<3x4xf32>
}

// -----

// softmax: the max reduction feeds a broadcast back into its own input, so it stays apart (it
// is never recomputed inside the loop that reads it); exp is stored by the sum's loop
// (multi-output) and read again by the divide: three loops.
// CHECK-LABEL: func.func @softmax
// CHECK:         %[[MAX:.*]] = strata.reduce(%arg0
// CHECK:           strata.maximum
// CHECK:         %[[E:.*]]:2 = strata.fusion(%arg0, %[[MAX]]) {kind = "input"}
// CHECK:           strata.subtract
// CHECK:           %[[X:.*]] = strata.exponential
// CHECK:           %[[SUM:.*]] = strata.reduce(%[[X]]
// CHECK:           strata.return %[[X]], %[[SUM]]
// CHECK:         %[[R:.*]] = strata.fusion(%[[E]]#0, %[[E]]#1) {kind = "loop"}
// CHECK-NOT:       strata.exponential
// CHECK:           strata.divide
// CHECK:         return %[[R]]
func.func @softmax(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %ninf = strata.constant dense<0xFF800000> : tensor<f32>
  %zero = strata.constant dense<0.0> : tensor<f32>
  %max = strata.reduce(%x init: %ninf) across dimensions = [1] : (tensor<2x5xf32>, tensor<f32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = strata.maximum %a, %b : tensor<f32>
    strata.return %m : tensor<f32>
  }
  %bmax = strata.broadcast_in_dim %max, dims = [0] : (tensor<2xf32>) -> tensor<2x5xf32>
  %s = strata.subtract %x, %bmax : tensor<2x5xf32>
  %e = strata.exponential %s : tensor<2x5xf32>
  %sum = strata.reduce(%e init: %zero) across dimensions = [1] : (tensor<2x5xf32>, tensor<f32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = strata.add %a, %b : tensor<f32>
    strata.return %p : tensor<f32>
  }
  %bsum = strata.broadcast_in_dim %sum, dims = [0] : (tensor<2xf32>) -> tensor<2x5xf32>
  %r = strata.divide %e, %bsum : tensor<2x5xf32>
  return %r : tensor<2x5xf32>
}

// -----

// Sibling reductions of one input over the same dimensions: one region, x read once; the
// mean's divide is the first reduction's epilogue.
// CHECK-LABEL: func.func @siblings
// CHECK:         %[[F:.*]]:2 = strata.fusion(%arg0) {kind = "input"}
// CHECK:           %[[S:.*]] = strata.reduce(%arg1
// CHECK:           %[[Q:.*]] = strata.reduce(
// CHECK:           %[[M:.*]] = strata.divide %[[S]]
// CHECK:           strata.return %[[Q]], %[[M]]
// CHECK-NOT:     strata.fusion
// CHECK:         return %[[F]]#1, %[[F]]#0
func.func @siblings(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %zero = strata.constant dense<0.0> : tensor<f32>
  %n = strata.constant dense<8.0> : tensor<4xf32>
  %sum = strata.reduce(%x init: %zero) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = strata.add %a, %b : tensor<f32>
    strata.return %p : tensor<f32>
  }
  %sq = strata.multiply %x, %x : tensor<4x8xf32>
  %sumsq = strata.reduce(%sq init: %zero) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = strata.add %a, %b : tensor<f32>
    strata.return %p : tensor<f32>
  }
  %mean = strata.divide %sum, %n : tensor<4xf32>
  return %mean, %sumsq : tensor<4xf32>, tensor<4xf32>
}

// -----

// relu(x·w + b): the bias add and relu are the dot's epilogue.
// NOEPI-LABEL: func.func @dot_epilogue(
// NOEPI:         %[[D:.*]] = strata.dot_general
// NOEPI:         strata.fusion(%[[D]], %arg2) {kind = "loop"}
// NOEPI-NOT:     kind = "output"
// CHECK-LABEL: func.func @dot_epilogue
// CHECK:         %[[F:.*]] = strata.fusion(%arg0, %arg1, %arg2) {kind = "output"}
// CHECK:           %[[D:.*]] = strata.dot_general
// CHECK:           %[[Z:.*]] = strata.add %[[D]]
// CHECK:           %[[R:.*]] = strata.maximum %[[Z]]
// CHECK:           strata.return %[[R]]
// CHECK:         return %[[F]]
func.func @dot_epilogue(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %zero = strata.constant dense<0.0> : tensor<4x16xf32>
  %d = strata.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %bb = strata.broadcast_in_dim %b, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>
  %z = strata.add %d, %bb : tensor<4x16xf32>
  %r = strata.maximum %z, %zero : tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// An epilogue scaling each row by a value computed from the whole vector (lstsq's masked
// 1/s, with s[0:1] stretched over the rows): the slice and the size-1 broadcast are not
// recomputed per output block — outlined per block they read the block's first row instead
// of s[0] (a miscompile: jit's lstsq differed from eager by 0.3%) — but materialized first;
// the epilogue keeps the per-row compare, select and scaling.
// CHECK-LABEL: func.func @dot_epilogue_row_scale
// CHECK:         %[[M:.*]] = strata.fusion(%arg0) {kind = "loop"}
// CHECK:           strata.slice
// CHECK:           strata.broadcast_in_dim
// CHECK:         strata.fusion(%arg1, %arg2, %arg0, %[[M]]) {kind = "output"}
// CHECK-NOT:       strata.slice
// CHECK:           strata.compare GE
// CHECK:           strata.dot_general
// CHECK:           strata.multiply
func.func @dot_epilogue_row_scale(%s: tensor<2xf64>, %u: tensor<2x16xf64>, %b: tensor<16x3xf64>) -> tensor<2x3xf64> {
  %first = strata.slice %s [0:1] : (tensor<2xf64>) -> tensor<1xf64>
  %eps = strata.constant dense<3.0e-15> : tensor<1xf64>
  %cut = strata.multiply %first, %eps : tensor<1xf64>
  %cuts = strata.broadcast_in_dim %cut, dims = [0] : (tensor<1xf64>) -> tensor<2xf64>
  %keep = strata.compare GE, %s, %cuts : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xi1>
  %zero = strata.constant dense<0.0> : tensor<2xf64>
  %scale = strata.select %keep, %s, %zero : tensor<2xi1>, tensor<2xf64>
  %d = strata.dot_general %u, %b, contracting_dims = [1] x [0] : (tensor<2x16xf64>, tensor<16x3xf64>) -> tensor<2x3xf64>
  %rows = strata.broadcast_in_dim %scale, dims = [0] : (tensor<2xf64>) -> tensor<2x3xf64>
  %r = strata.multiply %rows, %d : tensor<2x3xf64>
  return %r : tensor<2x3xf64>
}

// -----

// The pre-activation is needed again (as in a backward pass): the epilogue stops at the bias
// add, whose value the region returns; the relu is a loop of its own.
// CHECK-LABEL: func.func @dot_epilogue_escapes
// CHECK:         %[[Z:.*]] = strata.fusion(%arg0, %arg1, %arg2) {kind = "output"}
// CHECK:           strata.dot_general
// CHECK:           %[[A:.*]] = strata.add
// CHECK-NEXT:      strata.return %[[A]]
// CHECK:         %[[L:.*]]:2 = strata.fusion(%[[Z]]) {kind = "loop"}
// CHECK:           strata.maximum
// CHECK:         strata.dot_general %[[L]]#1, %[[L]]#1
// CHECK:         return %[[Z]], %[[L]]#0
func.func @dot_epilogue_escapes(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> (tensor<4x16xf32>, tensor<4x16xi1>) {
  %zero = strata.constant dense<0.0> : tensor<4x16xf32>
  %d = strata.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %bb = strata.broadcast_in_dim %b, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>
  %z = strata.add %d, %bb : tensor<4x16xf32>
  %r = strata.maximum %z, %zero : tensor<4x16xf32>
  %pos = strata.compare GT, %z, %zero : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xi1>
  %l = strata.log %r : tensor<4x16xf32>
  %dd = strata.dot_general %l, %l, contracting_dims = [1] x [1] : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x4xf32>
  return %z, %pos : tensor<4x16xf32>, tensor<4x16xi1>
}

// -----

// A value read inside a strata.if branch is an input of the if: fusing its producer with a
// consumer of the if's result would make the two depend on each other (found by
// fuzz_differential: "the groups depend on each other in a cycle"). The abs stays outside.
// CHECK-LABEL: func.func @read_in_a_branch
// CHECK:       %[[A:.*]] = strata.abs
// CHECK:       %[[R:.*]] = "strata.if"
// CHECK:       strata.negate %[[A]]
// CHECK:       strata.fusion(%[[A]], %[[R]]) {kind = "loop"}
// CHECK-NEXT:  ^bb0
// CHECK-NEXT:    strata.add
// CHECK-NEXT:    strata.multiply
func.func @read_in_a_branch(%p: tensor<i1>, %x: tensor<5xf32>) -> tensor<5xf32> {
  %a = strata.abs %x : tensor<5xf32>
  %r = "strata.if"(%p) ({
    %n = strata.negate %a : tensor<5xf32>
    strata.return %n : tensor<5xf32>
  }, {
    strata.return %x : tensor<5xf32>
  }) : (tensor<i1>) -> tensor<5xf32>
  %s = strata.add %a, %r : tensor<5xf32>
  %t = strata.multiply %s, %a : tensor<5xf32>
  return %t : tensor<5xf32>
}

// -----

// A stencil (slices and concatenates) read by two regions: the reduction's and the update's.
// The value that reads the pieces is stored once (multi-output of the reduction's nest), not
// the four pieces; and a splat constant from the function's entry (where the canonicalizer
// hoists a loop body's constants) is copied into the region rather than read from memory.
// LOG-LABEL: strata-fuse: @stencil_two_consumers
// LOG:       materialize %{{.*}} (strata.subtract): reads piecewise values, 2 consumers
// LOG-NOT:   materialize {{.*}}strata.concatenate
// CHECK-LABEL: func.func @stencil_two_consumers
// CHECK:       strata.while
// CHECK:       %[[F:.*]]:2 = strata.fusion(%{{[a-z0-9]+}}) {kind = "input"}
// CHECK:         strata.concatenate
// CHECK:         strata.constant dense<4.000000e+00>
// CHECK:         strata.reduce
// CHECK:       strata.return %{{.*}}, %{{.*}} : tensor<8x8xf32>, tensor<f32>
// CHECK:       strata.subtract %{{.*}}, %[[F]]#0
func.func @stencil_two_consumers(%u0: tensor<8x8xf32>, %r0: tensor<8x8xf32>, %n: tensor<i32>) -> (tensor<8x8xf32>, tensor<f32>) {
  %four = strata.constant dense<4.0> : tensor<8x8xf32>
  %z = strata.constant dense<0.0> : tensor<f32>
  %zr = strata.constant dense<0.0> : tensor<1x8xf32>
  %k0 = strata.constant dense<0> : tensor<i32>
  %one = strata.constant dense<1> : tensor<i32>
  %w:3 = strata.while(%k = %k0, %u = %u0, %s = %z) : tensor<i32>, tensor<8x8xf32>, tensor<f32>
    cond {
      %q = strata.compare LT, %k, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      strata.return %q : tensor<i1>
    } do {
      %a = strata.slice %u [1:8, 0:8] : (tensor<8x8xf32>) -> tensor<7x8xf32>
      %up = strata.concatenate %a, %zr, dim = 0 : (tensor<7x8xf32>, tensor<1x8xf32>) -> tensor<8x8xf32>
      %b = strata.slice %u [0:7, 0:8] : (tensor<8x8xf32>) -> tensor<7x8xf32>
      %down = strata.concatenate %zr, %b, dim = 0 : (tensor<1x8xf32>, tensor<7x8xf32>) -> tensor<8x8xf32>
      %m = strata.multiply %u, %four : tensor<8x8xf32>
      %l1 = strata.subtract %m, %up : tensor<8x8xf32>
      %lap = strata.subtract %l1, %down : tensor<8x8xf32>
      %pl = strata.multiply %u, %lap : tensor<8x8xf32>
      %dot = strata.reduce(%pl init: %z) applies strata.add across dimensions = [0, 1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<f32>
      %v = strata.subtract %u, %lap : tensor<8x8xf32>
      %j = strata.add %k, %one : tensor<i32>
      strata.return %j, %v, %dot : tensor<i32>, tensor<8x8xf32>, tensor<f32>
    }
  return %w#1, %w#2 : tensor<8x8xf32>, tensor<f32>
}
