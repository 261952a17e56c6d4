// tests/backends/linalg_cases.h — compiled-vs-eager cases of the linear-algebra primitives
// (issue 14): cholesky, triangular_solve, lu, qr, eigh, svd, eig, schur, hessenberg over f32/f64, batched, every
// flag, non-square shapes, empty and 1×1 matrices, singular and indefinite inputs (NaN/inf
// results), and a batch large enough to split across the pool; c64/c128 square, batched, tall
// and wide matrices and every triangular_solve flag (conjugate_a included). Compiled code calls the eager kernels'
// code, so the results are the same bits. Included inside primitive_cases.h's namespace.
#pragma once

// Symmetric (Hermitian) positive definite matrices [..., n, n]: x xᴴ + n I.
inline Array spd_array(const st::Shape& shape, DType t, uint64_t seed) {
  Array x = random_array(shape, t, -1, 1, seed);
  int64_t n = shape.back();
  std::vector<int> perm;
  for (size_t i = 0; i + 2 < shape.size(); ++i) perm.push_back(static_cast<int>(i));
  perm.push_back(static_cast<int>(shape.size()) - 1);
  perm.push_back(static_cast<int>(shape.size()) - 2);
  Array xh = st::transpose(x, perm);
  if (st::is_complex(t)) xh = st::conj(xh);
  return st::add(st::matmul(x, xh), st::astype(st::multiply(st::eye(n), static_cast<float>(n)), t));
}

inline bool is_linalg(std::string_view name) {
  return name == "cholesky" || name == "triangular_solve" || name == "lu" || name == "qr" || name == "eigh" ||
         name == "svd" || name == "eig" || name == "schur" || name == "hessenberg";
}

constexpr DType kLinalgTypes[] = {st::f32, st::f64, st::c64, st::c128};

inline std::vector<Case> cholesky_cases() {
  std::vector<Case> cs;
  for (DType t : kLinalgTypes) {
    std::string n(st::short_name(t));
    if (st::is_complex(t)) {
      cs.push_back({"hpd " + n, {}, {spd_array({2, 4, 4}, t, 1)}});
      cs.push_back({"indefinite " + n, {}, {random_array({3, 3}, t, -1, 1, 4)}});
      continue;
    }
    cs.push_back({"spd " + n, {}, {spd_array({4, 4}, t, 1)}});
    cs.push_back({"batched " + n, {}, {spd_array({2, 3, 5, 5}, t, 2)}});
    cs.push_back({"1x1 " + n, {}, {spd_array({1, 1}, t, 3)}});
    cs.push_back({"empty batch " + n, {}, {random_array({0, 3, 3}, t, -1, 1)}});
    cs.push_back({"0x0 " + n, {}, {random_array({0, 0}, t, -1, 1)}});
    cs.push_back({"indefinite " + n, {}, {random_array({3, 3}, t, -1, 1, 4)}});
    cs.push_back({"large batch " + n, {}, {spd_array({64, 6, 6}, t, 5)}});
  }
  return cs;
}

inline std::vector<Case> triangular_solve_cases() {
  std::vector<Case> cs;
  for (DType t : kLinalgTypes) {
    std::string n(st::short_name(t));
    Array a = st::add(random_array({2, 4, 4}, t, -1, 1, 1), st::astype(st::multiply(st::eye(4), 4.0f), t));
    for (int f = 0; f < (st::is_complex(t) ? 32 : 16); ++f) {
      bool left = f & 1, lower = f & 2, trans = f & 4, unit = f & 8, conj = f & 16;
      Params p{{"left_side", left}, {"lower", lower}, {"transpose_a", trans}, {"conjugate_a", conj}, {"unit_diagonal", unit}};
      Array b = random_array(left ? st::Shape{2, 4, 3} : st::Shape{2, 3, 4}, t, -1, 1, 2 + f);
      cs.push_back({"flags " + std::to_string(f) + " " + n, p, {a, b}});
    }
    if (st::is_complex(t)) continue;
    Params p{{"left_side", true}, {"lower", true}, {"transpose_a", false}, {"conjugate_a", false}, {"unit_diagonal", false}};
    cs.push_back({"singular " + n, p, {random_array({3, 3}, t, 0, 0), random_array({3, 2}, t, -1, 1)}});
    cs.push_back({"empty " + n, p, {random_array({0, 0}, t, 0, 1), random_array({0, 2}, t, -1, 1)}});
    cs.push_back({"large batch " + n, p, {st::add(random_array({64, 8, 8}, t, -1, 1), st::astype(st::multiply(st::eye(8), 8.0f), t)),
                                          random_array({64, 8, 5}, t, -1, 1, 9)}});
  }
  return cs;
}

// One-operand decompositions on square, tall, wide, batched, empty, 1×1 and special matrices.
inline std::vector<Case> decomposition_cases(Params p, bool square_only, bool symmetric) {
  std::vector<Case> cs;
  for (DType t : kLinalgTypes) {
    std::string n(st::short_name(t));
    auto mat = [&](const st::Shape& s, uint64_t seed) { return symmetric ? spd_array(s, t, seed) : random_array(s, t, -2, 2, seed); };
    cs.push_back({"square " + n, p, {mat({5, 5}, 1)}});
    cs.push_back({"batched " + n, p, {mat({2, 3, 4, 4}, 2)}});
    if (st::is_complex(t)) {  // the shapes that matter; the edge cases are dtype-blind
      if (!square_only) {
        cs.push_back({"tall " + n, p, {mat({6, 3}, 5)}});
        cs.push_back({"wide " + n, p, {mat({2, 3, 6}, 6)}});
      }
      continue;
    }
    cs.push_back({"1x1 " + n, p, {mat({1, 1}, 3)}});
    cs.push_back({"0x0 " + n, p, {random_array({0, 0}, t, 0, 1)}});
    cs.push_back({"empty batch " + n, p, {random_array({0, 3, 3}, t, 0, 1)}});
    cs.push_back({"zeros " + n, p, {random_array({3, 3}, t, 0, 0)}});
    cs.push_back({"large batch " + n, p, {mat({64, 6, 6}, 4)}});
    if (!square_only) {
      cs.push_back({"tall " + n, p, {mat({6, 3}, 5)}});
      cs.push_back({"wide " + n, p, {mat({2, 3, 6}, 6)}});
      cs.push_back({"0 columns " + n, p, {random_array({3, 0}, t, 0, 1)}});
    }
  }
  return cs;
}

inline std::vector<Case> qr_cases() {
  std::vector<Case> cs = decomposition_cases(Params{{"full_matrices", false}}, false, false);
  for (Case& c : decomposition_cases(Params{{"full_matrices", true}}, false, false)) {
    c.what = "full " + c.what;
    cs.push_back(c);
  }
  return cs;
}

inline std::vector<Case> eig_cases() {
  std::vector<Case> cs;
  for (bool left : {false, true})
    for (bool right : {true, false})
      for (Case& c : decomposition_cases(
               Params{{"compute_left_eigenvectors", left}, {"compute_right_eigenvectors", right}}, true, false)) {
        c.what = std::string(left ? "left " : "") + (right ? "right " : "") + c.what;
        cs.push_back(c);
      }
  return cs;
}

inline std::vector<Case> schur_cases() {
  std::vector<Case> cs = decomposition_cases(Params{{"compute_schur_vectors", true}}, true, false);
  for (Case& c : decomposition_cases(Params{{"compute_schur_vectors", false}}, true, false)) {
    c.what = "form only " + c.what;
    cs.push_back(c);
  }
  return cs;
}

inline std::vector<Case> svd_cases() {
  std::vector<Case> cs;
  for (bool full : {false, true})
    for (bool uv : {true, false})
      for (Case& c : decomposition_cases(Params{{"full_matrices", full}, {"compute_uv", uv}}, false, false)) {
        c.what = std::string(full ? "full " : "") + (uv ? "" : "values ") + c.what;
        cs.push_back(c);
      }
  return cs;
}
