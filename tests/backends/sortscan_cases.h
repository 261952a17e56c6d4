// tests/backends/sortscan_cases.h — compiled-vs-eager cases of issue 13's sorting group
// (argmin, reduce_and, reduce_or, clamp, …); included inside primitive_cases.h's namespace,
// before its table.
#pragma once

inline std::vector<Case> bool_reduce_cases() {
  std::vector<Case> cs;
  Array x = random_array({3, 4, 5}, st::bool_, 0, 1);
  for (const st::IntList& a : {st::IntList{2}, st::IntList{1}, st::IntList{0}, st::IntList{0, 2}, st::IntList{0, 1, 2}})
    cs.push_back({"axes " + std::to_string(a.size()) + "/" + std::to_string(a[0]), axes(a), {x}});
  cs.push_back({"empty axis", axes({1}), {random_array({3, 0, 2}, st::bool_, 0, 1)}});
  cs.push_back({"all true", axes({0}), {st::ones({7}, st::bool_)}});
  cs.push_back({"all false", axes({0}), {st::zeros({7}, st::bool_)}});
  cs.push_back({"large", axes({1}), {random_array({400, 300}, st::bool_, 0, 1, 3)}});
  return cs;
}

inline std::vector<Case> clamp_cases() {
  std::vector<Case> cs;
  for (DType t : kAll) {
    std::string n(st::short_name(t));
    Tolerance tol{4, 0, 0, true};
    Array lo = random_array({4, 5}, t, -5, 0, 1), x = random_array({4, 5}, t, -9, 9, 2), hi = random_array({4, 5}, t, 0, 5, 3);
    cs.push_back({"arrays " + n, {}, {lo, x, hi}, tol});
    cs.push_back({"0-d bounds " + n, {}, {random_array({}, t, -3, 0, 4), x, random_array({}, t, 0, 3, 5)}, tol});
    cs.push_back({"edges " + n, {}, {random_array({}, t, -1, 0, 4), edges(t), random_array({}, t, 0, 1, 5)}, tol});
    cs.push_back({"large " + n, {}, {random_array({}, t, -1, 0, 6), random_array({kLarge}, t, -5, 5, 7), random_array({kLarge}, t, 0, 1, 8)}, tol});
  }
  return cs;
}


// complex_too: c64 and c128 as well (cummax/cummin: the lexicographic order).
inline std::vector<Case> cumulative_cases(bool float_only, double lo, double hi, bool complex_too = false) {
  std::vector<Case> cs;
  std::vector<DType> types(std::begin(kNumeric), std::end(kNumeric));
  if (complex_too) types.insert(types.end(), std::begin(kComplex), std::end(kComplex));
  for (DType t : types) {
    if (float_only && !st::is_floating(t)) continue;
    std::string n(st::short_name(t));
    Tolerance tol{16, 0, 0, true};
    auto p = [](int64_t axis, bool reverse) { return Params{{"axis", axis}, {"reverse", reverse}}; };
    Array x = random_array({3, 4, 5}, t, lo, hi);
    for (int64_t axis : {0, 1, 2})
      for (bool reverse : {false, true})
        cs.push_back({"axis " + std::to_string(axis) + (reverse ? " reverse " : " ") + n, p(axis, reverse), {x}, tol});
    cs.push_back({"edges " + n, p(0, false), {edges(t)}, tol});
    cs.push_back({"edges reverse " + n, p(0, true), {edges(t)}, tol});
    cs.push_back({"empty " + n, p(1, false), {random_array({3, 0}, t, lo, hi)}, tol});
    cs.push_back({"large " + n, p(0, false), {random_array({kLarge}, t, lo, hi, 2)}, tol});
  }
  return cs;
}

// sort (issue 13): one operand on every axis and dtype, the edge values (nans of both signs,
// ±0, infinities: exact bits), ties, several operands with 1-3 keys, a long line (radix path).
inline std::vector<Case> sort_cases() {
  std::vector<Case> cs;
  auto p = [](int64_t dim, int64_t keys) { return Params{{"dimension", dim}, {"is_stable", true}, {"num_keys", keys}}; };
  for (DType t : kAll) {
    std::string n(st::short_name(t));
    Array x = random_array({3, 4, 5}, t, -3, 3);
    for (int64_t dim : {0, 1, 2}) cs.push_back({"axis " + std::to_string(dim) + " " + n, p(dim, 1), {x}});
    cs.push_back({"edges " + n, p(0, 1), {edges(t)}});
    cs.push_back({"large " + n, p(0, 1), {random_array({kLarge}, t, -50, 50, 2)}});
  }
  Array k0 = random_array({6, 50}, st::i32, -3, 3, 4), k1 = random_array({6, 50}, st::bf16, -2, 2, 5);
  Array v = random_array({6, 50}, st::f32, -9, 9, 6);
  for (int64_t keys : {1, 2, 3})
    for (int64_t dim : {0, 1})
      cs.push_back({"three operands, " + std::to_string(keys) + " keys, axis " + std::to_string(dim), p(dim, keys), {k0, k1, v}});
  cs.push_back({"large with payload", p(0, 1), {random_array({kLarge}, st::f32, -9, 9, 7), random_array({kLarge}, st::i64, -9, 9, 8)}});
  cs.push_back({"empty", p(1, 1), {random_array({3, 0}, st::f32, -1, 1)}});
  return cs;
}
