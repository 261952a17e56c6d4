// tracer/linalg_rules.cpp — see linalg_rules.h.
#include "linalg_rules.h"

#include <algorithm>
#include <array>

namespace strata::linalg_rules {
namespace {

constexpr std::array<std::string_view, 9> kNames = {"cholesky", "triangular_solve", "lu",  "qr",        "eigh",
                                                     "svd",      "eig",              "schur", "hessenberg"};

constexpr FlagParam kTriangularSolveFlags[] = {
    {"left_side", kLeftSide},
    {"lower", kLower},
    {"transpose_a", kTransposeA},
    {"conjugate_a", kConjugateA},
    {"unit_diagonal", kUnitDiagonal}};
constexpr FlagParam kQrFlags[] = {{"full_matrices", kFullMatrices}};
constexpr FlagParam kSvdFlags[] = {{"full_matrices", kFullMatrices}, {"compute_uv", kComputeUv}};
constexpr FlagParam kEigFlags[] = {{"compute_left_eigenvectors", kComputeLeft},
                                   {"compute_right_eigenvectors", kComputeRight}};
constexpr FlagParam kSchurFlags[] = {{"compute_schur_vectors", kComputeSchurVectors}};

Result fail(std::string e) { return {{}, {}, {}, {}, std::move(e)}; }

// The error for a shape that is not a (batch of) matrices, square if asked; empty if it is.
std::string matrix_error(const Shape& s, bool square, const char* what = "an operand") {
  if (s.size() < 2)
    return std::string("expects ") + what + " of rank >= 2 (a batch of matrices), but got " + shape_string(s);
  if (square && s[s.size() - 1] != s[s.size() - 2])
    return std::string("expects ") + what + " of square matrices [..., n, n], but got " + shape_string(s);
  return {};
}

Shape with_last(const Shape& s, std::initializer_list<int64_t> last) {
  Shape r(s.begin(), s.end() - 2);
  r.insert(r.end(), last.begin(), last.end());
  return r;
}

}  // namespace

std::string_view kind_name(Kind k) { return kNames[static_cast<size_t>(k)]; }

std::optional<Kind> kind_from_name(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == name) return static_cast<Kind>(i);
  return std::nullopt;
}

std::span<const FlagParam> flag_params(Kind k) {
  switch (k) {
    case Kind::kTriangularSolve: return kTriangularSolveFlags;
    case Kind::kQr: return kQrFlags;
    case Kind::kSvd: return kSvdFlags;
    case Kind::kEig: return kEigFlags;
    case Kind::kSchur: return kSchurFlags;
    default: return {};
  }
}

size_t num_operands(Kind k) { return k == Kind::kTriangularSolve ? 2 : 1; }

int64_t batch_size(const Shape& s) {
  int64_t b = 1;
  for (size_t i = 0; i + 2 < s.size(); ++i) b *= s[i];
  return b;
}

Result shapes(Kind k, int64_t flags, std::span<const Shape> in) {
  if (in.size() != num_operands(k))
    return fail("expects " + std::to_string(num_operands(k)) + " operands, but got " + std::to_string(in.size()));
  const Shape& a = in[0];
  bool square = k == Kind::kCholesky || k == Kind::kTriangularSolve || k == Kind::kEigh || k == Kind::kEig ||
                k == Kind::kSchur || k == Kind::kHessenberg;
  if (std::string e = matrix_error(a, square, k == Kind::kTriangularSolve ? "a" : "an operand"); !e.empty())
    return fail(e);
  int64_t m = a[a.size() - 2], n = a[a.size() - 1], kk = std::min(m, n);
  switch (k) {
    case Kind::kCholesky: return {{a}, {false}, {}, {}, {}};
    case Kind::kTriangularSolve: {
      const Shape& b = in[1];
      if (std::string e = matrix_error(b, false, "b"); !e.empty()) return fail(e);
      if (b.size() != a.size() || !std::equal(a.begin(), a.end() - 2, b.begin()))
        return fail("expects a and b with the same batch dimensions, but got " + shape_string(a) + " and " +
                    shape_string(b));
      int64_t along = (flags & kLeftSide) ? b[b.size() - 2] : b[b.size() - 1];
      if (along != m)
        return fail(std::string("expects b's ") + ((flags & kLeftSide) ? "rows" : "columns") +
                    " to match a's size, but got " + shape_string(a) + " and " + shape_string(b));
      return {{b}, {false}, {}, {}, {}};
    }
    case Kind::kLu: {
      Shape batch(a.begin(), a.end() - 2), piv = batch, perm = batch;
      piv.push_back(kk);
      perm.push_back(m);
      return {{a, piv, perm}, {false, true, true}, {}, {}, {}};
    }
    case Kind::kQr:
      if (flags & kFullMatrices) return {{with_last(a, {m, m}), a}, {false, false}, {}, {}, {}};
      return {{with_last(a, {m, kk}), with_last(a, {kk, n})}, {false, false}, {}, {}, {}};
    case Kind::kEigh: {
      Shape w(a.begin(), a.end() - 1);
      return {{a, w}, {false, false}, {}, {false, true}, {}};
    }
    case Kind::kSvd: {
      Shape s(a.begin(), a.end() - 2);
      s.push_back(kk);
      if (!(flags & kComputeUv)) return {{s}, {false}, {}, {true}, {}};
      if (flags & kFullMatrices)
        return {{s, with_last(a, {m, m}), with_last(a, {n, n})}, {false, false, false}, {}, {true, false, false}, {}};
      return {{s, with_last(a, {m, kk}), with_last(a, {kk, n})}, {false, false, false}, {}, {true, false, false}, {}};
    }
    case Kind::kEig: {  // w, then vl and vr as asked: all complex
      Result r{{Shape(a.begin(), a.end() - 1)}, {false}, {true}, {}, {}};
      for (int64_t bit : {kComputeLeft, kComputeRight})
        if (flags & bit) r.shapes.push_back(a), r.index.push_back(false), r.complex.push_back(true);
      return r;
    }
    case Kind::kSchur:  // t, then z as asked
      if (flags & kComputeSchurVectors) return {{a, a}, {false, false}, {}, {}, {}};
      return {{a}, {false}, {}, {}, {}};
    case Kind::kHessenberg: return {{a, a}, {false, false}, {}, {}, {}};  // h, q
  }
  return fail("expects a known decomposition");
}

}  // namespace strata::linalg_rules
