// The non-template half of strata/custom_solve.h: binding custom_linear_solve with each
// program's captured values hoisted into operands, and closure conversion.
#include "strata/custom_solve.h"

#include "op_helpers.h"
#include "primitives/control_flow.h"

namespace strata::detail {

namespace {
// The program's first outputs (the solution; auxiliary values may follow) typed like b's leaves.
void expect_b_types(const char* what, const JaxprImpl& j, const std::vector<Array>& b) {
  std::vector<AbstractValue> want = control_flow::avals_of(b), got = control_flow::out_avals(j);
  if (got.size() > want.size()) got.resize(want.size());
  control_flow::expect_types("custom_linear_solve", std::string(what) + " output", got, want);
}
}  // namespace

std::vector<Array> custom_linear_solve_call(const Jaxpr& matvec, const std::optional<Jaxpr>& vecmat, const Jaxpr& solve,
                                            const std::optional<Jaxpr>& transpose_solve, const std::vector<Array>& b,
                                            bool has_aux) {
  for (const Array& leaf : b) api::aval(leaf, "custom_linear_solve");
  expect_b_types("matvec", *matvec.impl(), b);
  expect_b_types("solve", *solve.impl(), b);
  if (transpose_solve) expect_b_types("transpose_solve", *transpose_solve->impl(), b);
  const Jaxpr* programs[4] = {&matvec, vecmat ? &*vecmat : nullptr, &solve, transpose_solve ? &*transpose_solve : nullptr};
  static constexpr const char* names[4] = {"matvec", "vecmat", "solve", "transpose_solve"};
  Params p;
  IntList lengths;
  std::vector<Array> operands;
  for (int k = 0; k < 4; ++k) {
    if (!programs[k]) {
      lengths.push_back(0);
      continue;
    }
    control_flow::Traced t = control_flow::open(*programs[k]->impl());
    p.set(names[k], t.jaxpr);
    lengths.push_back(static_cast<int64_t>(t.consts.size()));
    operands.insert(operands.end(), t.consts.begin(), t.consts.end());
  }
  p.set("const_lengths", lengths);
  if (has_aux) {  // solve's (and transpose_solve's) outputs after the solution
    auto extra = [&](const std::optional<Jaxpr>& j) {
      return j ? static_cast<int64_t>(j->impl()->outvars.size()) - static_cast<int64_t>(b.size()) : int64_t{0};
    };
    p.set("num_aux", IntList{extra(solve), extra(transpose_solve)});
  }
  operands.insert(operands.end(), b.begin(), b.end());
  return strata::bind(prim::kCustomLinearSolve, operands, p, SourceLoc{"custom_linear_solve", 0, 0});
}

std::pair<Jaxpr, std::vector<Array>> open_jaxpr(const Jaxpr& j) {
  control_flow::Traced t = control_flow::open(*j.impl());
  return {Jaxpr(t.jaxpr), std::move(t.consts)};
}

}  // namespace strata::detail
