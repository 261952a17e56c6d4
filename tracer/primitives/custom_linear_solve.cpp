// tracer/primitives/custom_linear_solve.cpp — `custom_linear_solve[matvec, vecmat, solve,
// transpose_solve, const_lengths, num_aux] consts... b...` (jax.lax.custom_linear_solve): x =
// solve(b), a solution of matvec(x) = b, differentiated implicitly instead of through the
// solver's steps.
//
// Operands: the values each program captured (const_lengths: matvec's, vecmat's, solve's,
// transpose_solve's, in that order), then the right-hand side b. Each program is open and takes
// its own captured values first. vecmat (the transpose of matvec) and transpose_solve are absent
// when the user gave no transpose_solve: then reverse mode is refused. num_aux (absent: none)
// counts the outputs solve and transpose_solve return after the solution (has_aux: solver
// diagnostics); the primitive returns x, then solve's; they get no derivative (JAX's has_aux).
//
//   jvp:  ẋ = solve(ḃ − ∂matvec/∂consts[ċ] (x))      (the same primitive on a new right-hand side)
//   vjp:  b̄ = transpose_solve(x̄);  c̄ = −(∂matvec/∂consts at x)ᵀ b̄  (matvec's captured values only:
//         the solvers' own captured values get no derivative, as in JAX)
#include "../array_impl.h"
#include "../autodiff.h"
#include "../batching.h"
#include "../jaxpr.h"
#include "../lax.h"
#include "ad_rules.h"
#include "batch_rules.h"
#include "control_flow.h"
#include "custom_calls.h"

namespace strata {
namespace {

using namespace control_flow;

constexpr const char* kPrograms[4] = {"matvec", "vecmat", "solve", "transpose_solve"};
enum Program { kMatvec = 0, kVecmat = 1, kSolve = 2, kTransposeSolve = 3 };

struct Parts {
  JaxprPtr program[4];     // null where absent (vecmat, transpose_solve)
  size_t offset[5] = {};   // operand offsets of each program's consts; offset[4]: b
  size_t num_b = 0;
  int64_t num_aux[2] = {0, 0};  // solve's, transpose_solve's
  int64_t aux_of(int k) const { return k == kSolve ? num_aux[0] : k == kTransposeSolve ? num_aux[1] : 0; }
  std::span<const Array> consts(std::span<const Array> x, int k) const {
    return x.subspan(offset[k], offset[k + 1] - offset[k]);
  }
  std::span<const Array> b(std::span<const Array> x) const { return x.subspan(offset[4]); }
};

Parts parts(const Params& p, size_t num_operands) {
  Parts s;
  const IntList& lengths = p.get_ints("const_lengths");
  if (lengths.size() != 4)
    throw ValueError("custom_linear_solve: const_lengths must hold 4 counts, but holds " + std::to_string(lengths.size()));
  for (int k = 0; k < 4; ++k) {
    if (p.has(kPrograms[k])) s.program[k] = p.get<JaxprPtr>(kPrograms[k]);
    if (lengths[k] < 0) throw ValueError("custom_linear_solve: const_lengths must be non-negative");
    s.offset[k + 1] = s.offset[k] + static_cast<size_t>(lengths[k]);
  }
  if (!s.program[kMatvec] || !s.program[kSolve])
    throw ValueError("custom_linear_solve: needs the matvec and solve programs");
  if (s.offset[4] > num_operands)
    throw ValueError("custom_linear_solve: const_lengths add up to " + std::to_string(s.offset[4]) + ", but there are " +
                     std::to_string(num_operands) + " operands");
  s.num_b = num_operands - s.offset[4];
  if (p.has("num_aux")) {
    const IntList& aux = p.get_ints("num_aux");
    if (aux.size() != 2 || aux[0] < 0 || aux[1] < 0)
      throw ValueError("custom_linear_solve: num_aux must hold 2 non-negative counts (solve's, transpose_solve's)");
    s.num_aux[0] = aux[0];
    s.num_aux[1] = aux[1];
  }
  return s;
}

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  Parts s = parts(p, in.size());
  std::span<const AbstractValue> b = in.subspan(s.offset[4]);
  for (int k = 0; k < 4; ++k) {
    if (!s.program[k]) continue;
    const JaxprImpl& j = *s.program[k];
    std::vector<AbstractValue> want = cat<AbstractValue>({in.subspan(s.offset[k], s.offset[k + 1] - s.offset[k]), b});
    expect_types("custom_linear_solve", std::string(kPrograms[k]) + " input", in_avals(j), want);
    std::vector<AbstractValue> got = out_avals(j);
    if (got.size() != b.size() + static_cast<size_t>(s.aux_of(k)))
      throw ValueError("custom_linear_solve: " + std::string(kPrograms[k]) + " returns " + std::to_string(got.size()) +
                      " values, but the right-hand side has " + std::to_string(b.size()) +
                      (s.aux_of(k) ? " and it has " + std::to_string(s.aux_of(k)) + " auxiliary ones" : std::string()));
    got.resize(b.size());
    expect_types("custom_linear_solve", std::string(kPrograms[k]) + " output", got, b);
  }
  if (!s.program[kVecmat] != !s.program[kTransposeSolve])
    throw ValueError("custom_linear_solve: vecmat and transpose_solve come together");
  std::vector<AbstractValue> out(b.begin(), b.end());
  for (AbstractValue& a : out) a.weak = false;
  std::vector<AbstractValue> aux = out_avals(*s.program[kSolve]);
  out.insert(out.end(), aux.begin() + static_cast<std::ptrdiff_t>(s.num_b), aux.end());
  return out;
}

std::vector<Array> eval(std::span<const Array> in, const Params& p) {
  Parts s = parts(p, in.size());
  return eval_jaxpr(*s.program[kSolve], cat<Array>({s.consts(in, kSolve), s.b(in)}));
}

// The same solve on another right-hand side (operands: the consts of x, then `rhs`).
std::vector<Array> solve_again(std::span<const Array> x, const Parts& s, std::span<const Array> rhs, const Params& p) {
  return lax::bind(prim::kCustomLinearSolve, cat<Array>({x.subspan(0, s.offset[4]), rhs}), p);
}

std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array> outs, const Params& p) {
  Parts s = parts(p, x.size());
  std::span<const Array> y = outs.subspan(0, s.num_b);  // the solution (then solve's auxiliary outputs)
  std::vector<Array> rhs(t.begin() + static_cast<std::ptrdiff_t>(s.offset[4]), t.end());
  bool consts_move = false;
  for (size_t i = s.offset[kMatvec]; i < s.offset[kMatvec + 1]; ++i) consts_move = consts_move || t[i].valid();
  if (consts_move) {
    // ∂matvec/∂consts[ċ] at the solution, with the solution's own tangent zero.
    std::vector<Array> tangents(t.begin() + static_cast<std::ptrdiff_t>(s.offset[kMatvec]),
                                t.begin() + static_cast<std::ptrdiff_t>(s.offset[kMatvec + 1]));
    tangents.resize(tangents.size() + y.size());
    ad::JvpResult r = ad::jvp(*s.program[kMatvec], cat<Array>({s.consts(x, kMatvec), y}), tangents);
    for (size_t i = 0; i < rhs.size(); ++i) {
      if (!r.tangents[i].valid()) continue;
      rhs[i] = rhs[i].valid() ? lax::sub(rhs[i], r.tangents[i]) : lax::neg(r.tangents[i]);
    }
  }
  bool any = false;
  for (const Array& r : rhs) any = any || r.valid();
  if (!any) return std::vector<Array>(outs.size());
  for (size_t i = 0; i < rhs.size(); ++i) rhs[i] = ad::instantiate(rhs[i], detail::aval_of(y[i]));
  std::vector<Array> dx = solve_again(x, s, rhs, p);
  dx.resize(s.num_b);
  dx.resize(outs.size());  // the auxiliary outputs: no tangent
  return dx;
}

std::vector<Array> vjp(std::span<const Array> x, std::span<const Array> outs, std::span<const Array> ct, const Params& p) {
  Parts s = parts(p, x.size());
  std::span<const Array> y = outs.subspan(0, s.num_b);  // the auxiliary outputs' cotangents are ignored
  std::vector<Array> result(x.size());
  std::vector<bool> consts_needed;
  bool any_const = false, any_b = false;
  for (size_t i = s.offset[kMatvec]; i < s.offset[kMatvec + 1]; ++i) {
    consts_needed.push_back(differentiable(detail::aval_of(x[i])) && ad::cotangent_needed(i));
    any_const = any_const || consts_needed.back();
  }
  for (size_t i = 0; i < s.num_b; ++i) any_b = any_b || ad::cotangent_needed(s.offset[4] + i);
  if (!any_const && !any_b) return result;
  if (!s.program[kTransposeSolve])
    throw ValueError("custom_linear_solve: reverse-mode differentiation (grad, vjp) needs transpose_solve, or "
                     "symmetric=true when the operator is symmetric; only forward mode (jvp) works without it");
  // b̄ = transpose_solve(x̄): the same primitive with the roles of the programs swapped.
  std::vector<Array> cts;
  for (size_t i = 0; i < y.size(); ++i) cts.push_back(ad::instantiate(ct[i], detail::aval_of(y[i])));
  const IntList& n = p.get_ints("const_lengths");
  Params q = p;
  q.set("matvec", s.program[kVecmat]);
  q.set("vecmat", s.program[kMatvec]);
  q.set("solve", s.program[kTransposeSolve]);
  q.set("transpose_solve", s.program[kSolve]);
  q.set("const_lengths", IntList{n[kVecmat], n[kMatvec], n[kTransposeSolve], n[kSolve]});
  if (p.has("num_aux")) q.set("num_aux", IntList{s.num_aux[1], s.num_aux[0]});
  std::vector<Array> bbar = lax::bind(
      prim::kCustomLinearSolve,
      cat<Array>({s.consts(x, kVecmat), s.consts(x, kMatvec), s.consts(x, kTransposeSolve), s.consts(x, kSolve), cts}), q);
  bbar.resize(s.num_b);
  for (size_t i = 0; i < s.num_b; ++i) result[s.offset[4] + i] = bbar[i];
  if (any_const) {
    // c̄ = −(∂matvec/∂consts at x)ᵀ b̄.
    std::vector<bool> needed = consts_needed;
    needed.resize(needed.size() + y.size(), false);
    Traced back = backward_program(*s.program[kMatvec], needed);
    std::vector<Array> g = eval_jaxpr(*back.jaxpr, cat<Array>({back.consts, s.consts(x, kMatvec), y, bbar}));
    size_t k = 0;
    for (size_t i = 0; i < consts_needed.size(); ++i)
      if (consts_needed[i]) result[s.offset[kMatvec] + i] = lax::neg(g[k++]);
  }
  return result;
}

// vmap: the right-hand side (and so the solution) batched along dimension 0; a captured value
// stays unbatched unless it is batched (a matrix shared by every right-hand side is not copied);
// every program replaced by its batched version for those operands.
batching::Out batch(std::span<const Array> args, std::span<const int> dims, const Params& p) {
  Parts s = parts(p, args.size());
  custom_calls::FrontBatch fb = custom_calls::batch_front(args, dims, s.offset[4]);
  const int64_t n = fb.size;
  const std::vector<Array>& xs = fb.operands;
  Params q = p;
  for (int k = 0; k < 4; ++k)
    if (s.program[k]) {
      std::vector<bool> mapped(fb.consts_mapped.begin() + static_cast<std::ptrdiff_t>(s.offset[k]),
                               fb.consts_mapped.begin() + static_cast<std::ptrdiff_t>(s.offset[k + 1]));
      mapped.resize(mapped.size() + s.num_b, true);
      q.set(kPrograms[k], custom_calls::batched(*s.program[k], n, mapped));
    }
  std::vector<Array> out = lax::bind(prim::kCustomLinearSolve, xs, q);
  return {out, std::vector<int>(out.size(), 0)};
}

}  // namespace

const Primitive prim::kCustomLinearSolve{
    .name = "custom_linear_solve",
    .traits = kTakesComplex,
    .shape_rule = rule,
    .eval = eval,
    .jvp = jvp,
    .vjp = vjp,
    .batch = batch,
};

}  // namespace strata
