// tracer/jaxpr.h — the Jaxpr: a typed, first-order SSA list of equations, as JAX has it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "abstract_value.h"
#include "params.h"
#include "primitive.h"
#include "strata/array.h"

namespace strata {

// Where the user's code called the op (from std::source_location), kept for diagnostics.
struct SourceLoc {
  const char* file = "";
  uint32_t line = 0;
  uint32_t column = 0;
  std::string str() const;  // "demo.cpp:12:9"
};

// An equation operand: a variable, or a 0-d literal (a concrete scalar folded into the program).
struct Atom {
  int var = -1;
  Array literal;  // set iff var < 0
  bool is_literal() const { return var < 0; }
};

struct Equation {
  const Primitive* prim = nullptr;
  std::vector<Atom> inputs;
  std::vector<int> outputs;  // variable ids
  Params params;
  SourceLoc loc;
};

// A closed jaxpr: `consts` hold the values of `constvars` (concrete arrays captured while
// tracing, or tracers of an enclosing trace).
struct JaxprImpl {
  std::vector<AbstractValue> vars;  // indexed by variable id
  std::vector<int> constvars;
  std::vector<int> invars;
  std::vector<Equation> eqns;
  std::vector<Atom> outvars;
  std::vector<Array> consts;

  const AbstractValue& aval(const Atom& a) const;
  // JAX's text form: "{ lambda ; a:f32[3]. let b:f32[3] = exp a in (b,) }" over several lines.
  std::string str() const;
};

// Whether `e` has an effect beyond its results (tracer/primitive.h: kEffect), itself or in a
// sub-program it holds: dead-code elimination keeps such equations.
bool has_effects(const Equation& e);
bool has_effects(const JaxprImpl& j);

// Evaluates `jaxpr` on `args` by binding each equation in turn: eagerly on concrete arrays,
// or, inside a trace, by recording the equations there (which inlines the program).
std::vector<Array> eval_jaxpr(const JaxprImpl& jaxpr, std::span<const Array> args);

}  // namespace strata
