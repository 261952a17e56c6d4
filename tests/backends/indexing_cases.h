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


// gather: rows of a table by id (in range, negative, past the end) in both modes, a 2-d index
// of single elements, scalar indices, no indices, a large table.
inline std::vector<Case> gather_cases() {
  std::vector<Case> cs;
  auto params = [](st::IntList offset, st::IntList collapsed, st::IntList map, int64_t ivd, st::IntList sizes, int64_t mode) {
    return Params{{"offset_dims", offset}, {"collapsed_slice_dims", collapsed}, {"start_index_map", map},
                  {"index_vector_dim", ivd}, {"slice_sizes", sizes}, {"mode", mode}};
  };
  constexpr DType kTypes[] = {st::f32, st::f64, st::bf16, st::f16, st::i32, st::i64, st::bool_};
  for (DType t : kTypes)
    for (int64_t mode : {int64_t{0}, int64_t{1}}) {
      std::string n = std::string(st::short_name(t)) + (mode ? " fill" : " clip");
      Array x = random_array({10, 4}, t, -9, 9);
      cs.push_back({"rows " + n, params({1}, {0}, {0}, 1, {1, 4}, mode), {x, ints({0, 3, -1, 9, 10, 100, -100}, {7, 1}, st::i32)}});
      cs.push_back({"elements " + n, params({}, {0, 1}, {1, 0}, 1, {1, 1}, mode), {x, ints({1, 2, 3, 9, -1, 0}, {3, 2}, st::i64)}});
      cs.push_back({"scalar indices, boxes " + n, params({0, 2}, {}, {0}, 1, {3, 2}, mode), {x, ints({0, 8, -2}, {3}, st::i32)}});
      cs.push_back({"no indices " + n, params({1}, {0}, {0}, 1, {1, 4}, mode), {x, ints({}, {0, 1}, st::i32)}});
    }
  std::vector<int64_t> ids;
  for (int64_t i = 0; i < 3000; ++i) ids.push_back((i * 7919) % 1003 - 2);
  cs.push_back({"large f32", params({1}, {0}, {0}, 1, {1, 64}, 0), {random_array({1000, 64}, st::f32, -9, 9), ints(ids, {3000, 1}, st::i32)}});
  return cs;
}

// A scatter with every dtype it takes: rows by id with repeats and drops, elements by 2-d
// index, empty updates, a large table.
// complex_too: c64 as well (scatter_max/min: the lexicographic order).
inline std::vector<Case> scatter_cases(bool numeric, bool complex_too = false) {
  std::vector<Case> cs;
  auto params = [](st::IntList window, st::IntList inserted, st::IntList map, int64_t ivd) {
    return Params{{"update_window_dims", window}, {"inserted_window_dims", inserted}, {"scatter_dims_to_operand_dims", map},
                  {"index_vector_dim", ivd}};
  };
  std::vector<DType> types{st::f32, st::f64, st::bf16, st::f16, st::i32, st::i64};
  if (!numeric) types.push_back(st::bool_);
  if (complex_too) types.push_back(st::c64);
  for (DType t : types) {
    std::string n(st::short_name(t));
    Array x = random_array({10, 4}, t, -9, 9, 1);
    cs.push_back({"rows " + n, params({1}, {0}, {0}, 1),
                  {x, ints({0, 3, -1, 9, 10, 3, 0}, {7, 1}, st::i32), random_array({7, 4}, t, -9, 9, 2)}});
    cs.push_back({"elements " + n, params({}, {0, 1}, {1, 0}, 1), {x, ints({1, 2, 3, 9, -1, 0}, {3, 2}, st::i64), random_array({3}, t, -9, 9, 3)}});
    cs.push_back({"windows " + n, params({0, 2}, {}, {0}, 1), {x, ints({0, 8, 7}, {3}, st::i32), random_array({3, 3, 2}, t, -9, 9, 4)}});
    cs.push_back({"empty " + n, params({1}, {0}, {0}, 1), {x, ints({}, {0, 1}, st::i32), random_array({0, 4}, t, -9, 9, 5)}});
  }
  std::vector<int64_t> ids;
  for (int64_t i = 0; i < 3000; ++i) ids.push_back((i * 7919) % 1003 - 2);
  cs.push_back({"large f32", params({1}, {0}, {0}, 1),
                {random_array({1000, 64}, st::f32, -9, 9, 1), ints(ids, {3000, 1}, st::i32), random_array({3000, 64}, st::f32, -9, 9, 2)}});
  return cs;
}

// The primitives whose start indices the cuda target would read on the host: it refuses them
// (--strata-reject-control-flow) and its primitive table leaves them out.
inline bool reads_starts_on_host(std::string_view name) {
  return name == "dynamic_slice" || name == "dynamic_update_slice";
}
