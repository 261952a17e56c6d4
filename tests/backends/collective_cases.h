// tests/backends/collective_cases.h — compiled-vs-eager cases of the collectives (issue 18) in
// one process: a one-process mesh (each group has one member, so the runtime call and the eager
// kernel both run on the one-process transport), every dtype they take, empty and large
// operands. The multi-process runs are tests/distributed. Included inside primitive_cases.h's
// namespace.
#pragma once

inline bool is_collective(std::string_view name) {
  const st::Primitive* p = st::find_primitive(name);
  return p && p->has(st::kCollective);
}

inline Params collective_params(std::string_view name) {
  Params p{{"axis_name", std::string("p")}, {"axis_size", int64_t{1}}, {"mesh", st::IntList{1}}, {"mesh_dims", st::IntList{0}}};
  if (name == "ppermute") p.set("perm", st::IntList{0, 0});
  return p;
}

inline std::vector<Case> collective_cases(std::string_view name) {
  std::vector<Case> cs;
  if (name == "axis_index") return {{"axis_index", collective_params(name), {}}};
  const bool reduces = name == "psum" || name == "pmax" || name == "pmin" || name == "psum_scatter";
  const bool leading = name == "psum_scatter" || name == "all_to_all";  // its leading dimension is the axis size
  for (DType t : kAll) {
    if (reduces && t == st::bool_) continue;
    std::string n(st::short_name(t));
    auto shape = [&](st::Shape s) {
      if (leading) s.insert(s.begin(), 1);
      return s;
    };
    cs.push_back({"random " + n, collective_params(name), {random_array(shape({3, 4}), t, -5, 5, 1)}});
    cs.push_back({"empty " + n, collective_params(name), {random_array(shape({0, 2}), t, -5, 5)}});
    cs.push_back({"large " + n, collective_params(name), {random_array(shape({kLarge}), t, -5, 5, 2)}});
  }
  if (name == "ppermute") {  // the one member sends to no one: zeros
    Params p = collective_params(name);
    p.set("perm", st::IntList{});
    cs.push_back({"no pairs", p, {random_array({5}, st::f32, -5, 5, 3)}});
  }
  return cs;
}
