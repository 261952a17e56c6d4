// Comparing a computed value with the expected one, as StableHLO's check ops define it
// (CheckOps.h).
#include <cmath>
#include <complex>
#include <sstream>

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/BuiltinTypes.h"
#include "tools/strata-run/CheckOps.h"

namespace strata::run {
namespace {

// A float's bits as an integer that orders floats (and counts ulps between them).
int64_t orderedBits(const llvm::APFloat& f) {
  llvm::APInt bits = f.bitcastToAPInt();
  unsigned w = bits.getBitWidth();
  uint64_t u = bits.getZExtValue();
  uint64_t sign = uint64_t{1} << (w - 1);
  int64_t magnitude = static_cast<int64_t>(u & (sign - 1));
  return (u & sign) ? -magnitude : magnitude;
}

double toDouble(llvm::APFloat f) {
  bool lost;
  f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &lost);
  return f.convertToDouble();
}

bool floatsPass(const Check& c, const llvm::APFloat& a, const llvm::APFloat& e) {
  if (a.isNaN() || e.isNaN()) return a.isNaN() && e.isNaN();
  double x = toDouble(a), y = toDouble(e);
  switch (c.compare) {
    case Compare::kEqual: return x == y;
    case Compare::kAlmostEqual:
      if (std::isinf(y) || y == 0 || std::isinf(x)) return x == y;
      return std::fabs(x - y) <= c.tolerance;
    case Compare::kClose: {
      int64_t d = orderedBits(a) - orderedBits(e);
      d = d < 0 ? -d : d;
      return d >= c.min_ulp && d <= c.max_ulp;
    }
    case Compare::kRelative:
      if (std::isinf(y) || std::isinf(x)) return x == y;
      return std::fabs(x - y) <= c.atol + c.rtol * std::fabs(y);
  }
  return false;
}

}  // namespace

std::string compareValues(const Check& c, mlir::DenseElementsAttr actual, mlir::DenseElementsAttr expected) {
  std::string out;
  llvm::raw_string_ostream os(out);
  if (actual.getType() != expected.getType()) {
    os << "the value is " << actual.getType() << ", but the expected one is " << expected.getType();
    return out;
  }
  int64_t n = actual.getNumElements(), bad = 0, first = -1;
  std::string firstText;
  if (isa<mlir::ComplexType>(actual.getElementType())) {  // each part as a float of its own
    auto as = actual.getValues<std::complex<llvm::APFloat>>();
    auto es = expected.getValues<std::complex<llvm::APFloat>>();
    for (int64_t i = 0; i < n; ++i) {
      std::complex<llvm::APFloat> a = as[i], e = es[i];
      if (floatsPass(c, a.real(), e.real()) && floatsPass(c, a.imag(), e.imag())) continue;
      if (bad++ == 0) {
        first = i;
        std::ostringstream s;
        s.precision(9);
        s << "(" << toDouble(a.real()) << ", " << toDouble(a.imag()) << ") vs expected (" << toDouble(e.real()) << ", "
          << toDouble(e.imag()) << ")";
        firstText = s.str();
      }
    }
  } else if (isa<mlir::FloatType>(actual.getElementType())) {
    auto as = actual.getValues<llvm::APFloat>();
    auto es = expected.getValues<llvm::APFloat>();
    for (int64_t i = 0; i < n; ++i) {
      if (floatsPass(c, as[i], es[i])) continue;
      if (bad++ == 0) {
        first = i;
        std::ostringstream s;
        s.precision(9);
        s << toDouble(as[i]) << " vs expected " << toDouble(es[i]);
        if (c.compare == Compare::kClose) s << " (" << std::llabs(orderedBits(as[i]) - orderedBits(es[i])) << " ulp)";
        firstText = s.str();
      }
    }
  } else {
    auto as = actual.getValues<llvm::APInt>();
    auto es = expected.getValues<llvm::APInt>();
    for (int64_t i = 0; i < n; ++i) {
      if (as[i] == es[i]) continue;
      if (bad++ == 0) {
        first = i;
        bool isBool = actual.getElementType().isInteger(1) || actual.getElementType().isUnsignedInteger();  // zero-extended
        firstText = (isBool ? std::to_string(as[i].getZExtValue()) : std::to_string(as[i].getSExtValue())) +
                    " vs expected " + (isBool ? std::to_string(es[i].getZExtValue()) : std::to_string(es[i].getSExtValue()));
      }
    }
  }
  if (bad) os << bad << " of " << n << " elements differ; the first, at flat index " << first << ": " << firstText;
  return out;
}

}  // namespace strata::run
