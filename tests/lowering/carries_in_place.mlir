// --strata-carries-in-place: a while loop's carry that a reduction nest reads and rewrites
// element by element becomes the nest's output init (read through the output's block
// argument), so that bufferization updates it in its own buffer; a carry the nest also reads
// elsewhere (a stencil's neighbour, through tensor.extract) keeps its temporary.
// RUN: strata-opt --strata-carries-in-place %s | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#scalar = affine_map<(d0, d1) -> ()>

// CHECK-LABEL: func.func @axpy_and_dot
// CHECK:       scf.while
// CHECK:       } do {
// CHECK:       ^bb0(%[[X:.*]]: tensor<64x64xf32>, %[[P:.*]]: tensor<64x64xf32>, %{{.*}}: tensor<f32>):
// CHECK:         %[[R:.*]]:2 = linalg.generic {{.*}} ins(%[[P]] : tensor<64x64xf32>) outs(%{{.*}}, %[[X]] : tensor<f32>, tensor<64x64xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %[[ACC:.*]]: f32, %[[OLD:.*]]: f32):
// CHECK-NEXT:      %[[NEW:.*]] = arith.addf %[[OLD]], %[[IN]] : f32
// CHECK-NEXT:      %[[SQ:.*]] = arith.mulf %[[NEW]], %[[NEW]] : f32
// CHECK-NEXT:      %[[SUM:.*]] = arith.addf %[[ACC]], %[[SQ]] : f32
// CHECK-NEXT:      linalg.yield %[[SUM]], %[[NEW]] : f32, f32
// CHECK:         bufferization.materialize_in_destination %[[R]]#1 in %[[X]]
func.func @axpy_and_dot(%x0: tensor<64x64xf32>, %p: tensor<64x64xf32>, %n: tensor<f32>) -> tensor<64x64xf32> {
  %r:3 = scf.while (%x = %x0, %q = %p, %s = %n) : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<f32>) -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<f32>) {
    %go = tensor.extract %s[] : tensor<f32>
    %zero = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %go, %zero : f32
    scf.condition(%c) %x, %q, %s : tensor<64x64xf32>, tensor<64x64xf32>, tensor<f32>
  } do {
  ^bb0(%x: tensor<64x64xf32>, %q: tensor<64x64xf32>, %s: tensor<f32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<64x64xf32>
    %e0 = tensor.empty() : tensor<f32>
    %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
    %g:2 = linalg.generic {indexing_maps = [#id, #id, #scalar, #id], iterator_types = ["reduction", "reduction"]}
        ins(%x, %q : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f, %e : tensor<f32>, tensor<64x64xf32>) {
    ^bb0(%xi: f32, %pi: f32, %acc: f32, %o: f32):
      %new = arith.addf %xi, %pi : f32
      %sq = arith.mulf %new, %new : f32
      %sum = arith.addf %acc, %sq : f32
      linalg.yield %sum, %new : f32, f32
    } -> (tensor<f32>, tensor<64x64xf32>)
    %m = bufferization.materialize_in_destination %g#1 in %x : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %ms = bufferization.materialize_in_destination %g#0 in %s : (tensor<f32>, tensor<f32>) -> tensor<f32>
    scf.yield %m, %q, %ms : tensor<64x64xf32>, tensor<64x64xf32>, tensor<f32>
  }
  return %r#0 : tensor<64x64xf32>
}

// CHECK-LABEL: func.func @neighbour_read
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<64x64xf32>, tensor<64x64xf32>) outs(%{{.*}}, %{{.*}} : tensor<f32>, tensor<64x64xf32>)
func.func @neighbour_read(%x0: tensor<64x64xf32>, %p: tensor<64x64xf32>, %n: tensor<f32>) -> tensor<64x64xf32> {
  %r:3 = scf.while (%x = %x0, %q = %p, %s = %n) : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<f32>) -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<f32>) {
    %go = tensor.extract %s[] : tensor<f32>
    %zero = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %go, %zero : f32
    scf.condition(%c) %x, %q, %s : tensor<64x64xf32>, tensor<64x64xf32>, tensor<f32>
  } do {
  ^bb0(%x: tensor<64x64xf32>, %q: tensor<64x64xf32>, %s: tensor<f32>):
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %e = tensor.empty() : tensor<64x64xf32>
    %e0 = tensor.empty() : tensor<f32>
    %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
    %g:2 = linalg.generic {indexing_maps = [#id, #id, #scalar, #id], iterator_types = ["reduction", "reduction"]}
        ins(%x, %q : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f, %e : tensor<f32>, tensor<64x64xf32>) {
    ^bb0(%xi: f32, %pi: f32, %acc: f32, %o: f32):
      %corner = tensor.extract %x[%c0, %c0] : tensor<64x64xf32>
      %new = arith.addf %xi, %corner : f32
      %sum = arith.addf %acc, %pi : f32
      linalg.yield %sum, %new : f32, f32
    } -> (tensor<f32>, tensor<64x64xf32>)
    %m = bufferization.materialize_in_destination %g#1 in %x : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %ms = bufferization.materialize_in_destination %g#0 in %s : (tensor<f32>, tensor<f32>) -> tensor<f32>
    scf.yield %m, %q, %ms : tensor<64x64xf32>, tensor<64x64xf32>, tensor<f32>
  }
  return %r#0 : tensor<64x64xf32>
}
