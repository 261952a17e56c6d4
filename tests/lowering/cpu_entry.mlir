// --strata-cpu-entry (LLVM dialect): strata_entry(void* const* buffers) rebuilds each memref
// descriptor of the entry function (the one with strata.entry_arg_types) from a bare pointer —
// offset 0, the static sizes, row-major strides — and calls it; its aligned pointers get
// noalias, and it becomes internal (LLVM inlines it into strata_entry, folding the constants).
// RUN: strata-opt --split-input-file --verify-diagnostics --strata-cpu-entry %s | FileCheck %s

// CHECK-LABEL: llvm.func internal @main
// CHECK-SAME:  (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64)
// CHECK-LABEL: llvm.func @strata_entry
// CHECK-SAME:  (%[[BUFS:.*]]: !llvm.ptr)
// CHECK:       %[[S0:.*]] = llvm.getelementptr %[[BUFS]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK:       %[[P0:.*]] = llvm.load %[[S0]] : !llvm.ptr -> !llvm.ptr
// Offset 0, sizes 2 and 3, strides 3 and 1.
// CHECK-NEXT:  %[[C0:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT:  %[[C2:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT:  %[[C3:.*]] = llvm.mlir.constant(3 : i64) : i64
// CHECK-NEXT:  %[[S3:.*]] = llvm.mlir.constant(3 : i64) : i64
// CHECK-NEXT:  %[[C1:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK:       %[[S1:.*]] = llvm.getelementptr %[[BUFS]][1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK:       %[[P1:.*]] = llvm.load %[[S1]] : !llvm.ptr -> !llvm.ptr
// CHECK:       llvm.call @main(%[[P0]], %[[P0]], %[[C0]], %[[C2]], %[[C3]], %[[S3]], %[[C1]], %[[P1]], %[[P1]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NEXT:  llvm.return
module {
  llvm.func @main(%a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64, %a4: i64, %a5: i64, %a6: i64,
                  %b0: !llvm.ptr, %b1: !llvm.ptr, %b2: i64, %b3: i64, %b4: i64)
      attributes {strata.entry_arg_types = [memref<2x3xf32>, memref<64xi8>]} {
    llvm.return
  }
}

// -----

// expected-error @+1 {{strata-cpu-entry: expects a function with strata.entry_arg_types}}
module {
  llvm.func @main(%a: !llvm.ptr) {
    llvm.return
  }
}

// -----

module {
  // expected-error @+1 {{strata-cpu-entry: expects 5 LLVM arguments of @main, but got 1}}
  llvm.func @main(%a: !llvm.ptr) attributes {strata.entry_arg_types = [memref<4xf32>]} {
    llvm.return
  }
}
