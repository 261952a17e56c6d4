// tests/backends/indexing_cases.h — the compiled-vs-eager cases of the indexing primitives
// (dynamic_slice, dynamic_update_slice), rows of primitive_cases.h's case_table: starts in range,
// past either end (clamped), boxes of size 0 and of the whole dimension, every dtype.
#pragma once

// Included by primitive_cases.h after its Case (not on its own).

inline Array i32_scalar(int64_t v) { return ints({v}, {}, st::i32); }

inline std::vector<Case> dynamic_slice_cases() {
  std::vector<Case> cs;
  constexpr DType kTypes[] = {st::f32, st::f64, st::bf16, st::f16, st::i32, st::i64, st::bool_};
  for (DType t : kTypes) {
    std::string n(st::short_name(t));
    Array x = random_array({5, 6}, t, -9, 9);
    Params sizes{{"slice_sizes", st::IntList{2, 3}}};
    cs.push_back({"inside " + n, sizes, {x, i32_scalar(1), i32_scalar(2)}});
    cs.push_back({"clamped high " + n, sizes, {x, i32_scalar(4), i32_scalar(100)}});
    cs.push_back({"clamped low " + n, sizes, {x, i32_scalar(-3), i32_scalar(-2147483647 - 1)}});
    cs.push_back({"empty box " + n, Params{{"slice_sizes", st::IntList{0, 6}}}, {x, i32_scalar(3), i32_scalar(1)}});
    cs.push_back({"0-d " + n, Params{{"slice_sizes", st::IntList{}}}, {random_array({}, t, -9, 9)}});
  }
  cs.push_back({"large f32", Params{{"slice_sizes", st::IntList{300, 400}}},
                {random_array({400, 500}, st::f32, -9, 9), i32_scalar(50), i32_scalar(77)}});
  return cs;
}

inline std::vector<Case> dynamic_update_slice_cases() {
  std::vector<Case> cs;
  constexpr DType kTypes[] = {st::f32, st::f64, st::bf16, st::f16, st::i32, st::i64, st::bool_};
  for (DType t : kTypes) {
    std::string n(st::short_name(t));
    Array x = random_array({5, 6}, t, -9, 9, 1);
    Array u = random_array({2, 3}, t, -9, 9, 2);
    cs.push_back({"inside " + n, {}, {x, u, i32_scalar(1), i32_scalar(2)}});
    cs.push_back({"clamped high " + n, {}, {x, u, i32_scalar(4), i32_scalar(100)}});
    cs.push_back({"clamped low " + n, {}, {x, u, i32_scalar(-3), i32_scalar(-7)}});
    cs.push_back({"whole " + n, {}, {x, random_array({5, 6}, t, -9, 9, 3), i32_scalar(2), i32_scalar(0)}});
    cs.push_back({"empty update " + n, {}, {x, random_array({0, 6}, t, -9, 9), i32_scalar(2), i32_scalar(0)}});
  }
  cs.push_back({"large f32", {},
                {random_array({400, 500}, st::f32, -9, 9, 1), random_array({300, 400}, st::f32, -9, 9, 2),
                 i32_scalar(50), i32_scalar(377)}});
  return cs;
}


// The primitives whose start indices the cuda target would read on the host: it refuses them
// (--strata-reject-control-flow) and its primitive table leaves them out.
inline bool reads_starts_on_host(std::string_view name) {
  return name == "dynamic_slice" || name == "dynamic_update_slice";
}
