// Every lane of compiled math calls one libmvec variant per function (lowering/VectorMath.h):
// the vectorised loop's and the remainder's (37 = 32 + 5 here); no call of libm's scalar
// function, LLVM's intrinsic or another variant is left. Each RUN lists the distinct callees of
// one function: exactly one, the variant. (-O0 and -O1 do not vectorise: libm's alone there.)
// RUN: strata-opt --emit=llvm-ir --parallel=false %s | grep -o '@\(expf\|llvm\.exp\.[a-z0-9]*\|_ZGV[A-Za-z0-9]*_expf\)(' | sort -u | FileCheck %s --check-prefix=EXP
// RUN: strata-opt --emit=llvm-ir --parallel=false %s | grep -o '@\(sin\|llvm\.sin\.[a-z0-9]*\|_ZGV[A-Za-z0-9]*_sin\)(' | sort -u | FileCheck %s --check-prefix=SIN
// RUN: strata-opt --emit=llvm-ir --parallel=false %s | grep -o '@\(pow\|llvm\.pow\.[a-z0-9]*\|_ZGV[A-Za-z0-9]*_pow\)(' | sort -u | FileCheck %s --check-prefix=POW

// EXP:      @_ZGV{{[bde]}}N{{4|8|16}}v_expf(
// EXP-NOT:  {{.}}
// SIN:      @_ZGV{{[bde]}}N{{2|4|8}}v_sin(
// SIN-NOT:  {{.}}
// POW:      @_ZGV{{[bde]}}N{{2|4|8}}vv_pow(
// POW-NOT:  {{.}}
func.func @main(%x: tensor<37xf32>, %y: tensor<37xf64>) -> (tensor<37xf32>, tensor<37xf64>) {
  %0 = strata.exponential %x : tensor<37xf32>
  %1 = strata.sine %y : tensor<37xf64>
  %2 = strata.power %1, %y : tensor<37xf64>
  return %0, %2 : tensor<37xf32>, tensor<37xf64>
}
