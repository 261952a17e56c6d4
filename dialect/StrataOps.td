// dialect/StrataOps.td — the ops of the `strata` dialect.
//
// One template for every op: summary, one sentence of semantics, an `Example:` block, traits,
// typed operands and results, a declarative assembly format, and a verifier wherever a rule
// goes beyond what the traits and type constraints check. Elementwise ops are fully checked by
// their traits (SameOperandsAndResultType, Elementwise) and their type constraints. The
// structural ops' shape rules are the tracer's (tracer/shape_rules.h), called from C++.
#ifndef STRATA_OPS_TD
#define STRATA_OPS_TD

include "StrataDialect.td"
include "StrataInterfaces.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------------------===//
// Constants and index generation.
//===----------------------------------------------------------------------------------===//

def Strata_ConstantOp : Strata_Op<"constant",
    [ConstantLike, Pure, AllTypesMatch<["value", "output"]>]> {
  let summary = "a constant tensor";
  let description = [{
    Produces the tensor held by `value`.

    Example:
    ```mlir
    %0 = strata.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Strata_Tensor:$output);
  let assemblyFormat = "attr-dict $value";
  let builders = [OpBuilder<(ins "::mlir::ElementsAttr":$value), [{
    build($_builder, $_state, value.getType(), value);
  }]>];
  let hasFolder = 1;
}

def Strata_IotaOp : Strata_Op<"iota", [Pure]> {
  let summary = "indices along one dimension";
  let description = [{
    Fills the result so that each element holds its index along `iota_dimension`.

    Example:
    ```mlir
    %0 = strata.iota dim = 1 : tensor<2x3xi32>  // [[0, 1, 2], [0, 1, 2]]
    ```
  }];
  let arguments = (ins I64Attr:$iota_dimension);
  let results = (outs Strata_NumericTensor:$output);
  let assemblyFormat = "`dim` `=` $iota_dimension attr-dict `:` type($output)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------------------===//
// Elementwise ops.
//===----------------------------------------------------------------------------------===//

// Elementwise ops that cost well above a load and a store per element (see StrataOps.h).
def Strata_Expensive : NativeOpTrait<"Expensive"> {
  let cppNamespace = "::mlir::OpTrait::strata";
}

// An elementwise op carries its semantics and its jaxpr primitive in its record:
//  - `scalar`: the body of ScalarOpInterface::buildScalar (C++), with `b`, `loc`, `args`,
//    `resultType` in scope, `x` and `y` for args[0] and args[1], `fl` (x is a float) and
//    `boolean` (x is i1), `uns` (the integer operands are unsigned: ScalarOps.h,
//    unsignedOperands), `cx` (x is complex: the body builds `complex` dialect ops), and `e`, a scalar::Emitter (dialect/ScalarOps.h, which also holds the
//    longer bodies); it returns the result element in its compute type;
//  - `jaxprPrimitive`: the jaxpr primitive that lowers to this op applied to the equation's
//    operands (lowering/JaxprToStrata.cpp builds its table from these), or "" for none;
//  - `movesStoredBits`: the body moves stored elements (no compute type, no rounding).
class Strata_ElementwiseOp<string mnemonic, list<Trait> traits = []> :
    Strata_Op<mnemonic, !listconcat([Pure, Elementwise, SameOperandsAndResultShape,
        DeclareOpInterfaceMethods<Strata_ScalarOpInterface, ["movesStoredBits"]>], traits)> {
  code scalar = ?;
  string jaxprPrimitive = "";
  bit movesStoredBits = 0;
  let extraClassDeclaration = [{
    // The jaxpr primitive lowered to this op ("" for none).
    static constexpr ::llvm::StringLiteral kJaxprPrimitive = "}] # jaxprPrimitive # [{";
  }];
  let extraClassDefinition = [{
    ::mlir::Value $cppClass::buildScalar(::mlir::OpBuilder& b, ::mlir::Location loc,
                                         ::mlir::ValueRange args, ::mlir::Type resultType) {
      [[maybe_unused]] scalar::Emitter e{b, loc};
      [[maybe_unused]] ::mlir::Value x = args[0];
      [[maybe_unused]] ::mlir::Value y = args.size() > 1 ? args[1] : ::mlir::Value();
      [[maybe_unused]] bool fl = ::mlir::isa<::mlir::FloatType>(x.getType());
      [[maybe_unused]] bool cx = ::mlir::isa<::mlir::ComplexType>(x.getType());
      [[maybe_unused]] bool boolean = x.getType().isInteger(1);
      [[maybe_unused]] bool uns = unsignedOperands(getOperation());
      }] # scalar # [{
    }
    bool $cppClass::movesStoredBits() { return }] # !if(movesStoredBits, "true", "false") # [{; }
  }];
}

// y = op(x), of one type.
class Strata_UnaryElementwiseOp<string mnemonic, Type tensor, string semantics,
                                string example, list<Trait> traits = []> :
    Strata_ElementwiseOp<mnemonic, !listconcat([SameOperandsAndResultType], traits)> {
  let description = semantics # "\n\nExample:\n```mlir\n" # example # "\n```\n";
  let arguments = (ins tensor:$operand);
  let results = (outs tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
}

// z = op(x, y), all of one type.
class Strata_BinaryElementwiseOp<string mnemonic, Type tensor, string semantics,
                                 string example, list<Trait> traits = []> :
    Strata_ElementwiseOp<mnemonic, !listconcat([SameOperandsAndResultType], traits)> {
  let description = semantics # "\n\nExample:\n```mlir\n" # example # "\n```\n";
  let arguments = (ins tensor:$lhs, tensor:$rhs);
  let results = (outs tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

// --- Binary arithmetic.

def Strata_AddOp : Strata_BinaryElementwiseOp<"add", Strata_Tensor,
    "Adds `lhs` and `rhs` elementwise (logical or on `i1`).",
    "%2 = strata.add %0, %1 : tensor<4x16xf32>", [Commutative]> {
  let jaxprPrimitive = "add";
  let scalar = [{
    if (cx) return complex::AddOp::create(b, loc, x, y);
    if (fl) return arith::AddFOp::create(b, loc, x, y);
    return boolean ? e.ori(x, y) : e.addi(x, y);
  }];
  let summary = "elementwise addition";
  let hasFolder = 1;
}
def Strata_SubtractOp : Strata_BinaryElementwiseOp<"subtract", Strata_NumericTensor,
    "Subtracts `rhs` from `lhs` elementwise.",
    "%2 = strata.subtract %0, %1 : tensor<4xf32>"> {
  let jaxprPrimitive = "sub";
  let scalar = [{
    if (cx) return complex::SubOp::create(b, loc, x, y);
    if (fl) return arith::SubFOp::create(b, loc, x, y);
    return e.subi(x, y);
  }];
  let summary = "elementwise subtraction";
  let hasFolder = 1;
}
def Strata_MultiplyOp : Strata_BinaryElementwiseOp<"multiply", Strata_Tensor,
    "Multiplies `lhs` and `rhs` elementwise (logical and on `i1`).",
    "%2 = strata.multiply %0, %1 : tensor<4xf32>", [Commutative]> {
  let jaxprPrimitive = "mul";
  let scalar = [{
    if (cx) return complex::MulOp::create(b, loc, x, y);
    if (fl) return arith::MulFOp::create(b, loc, x, y);
    return boolean ? e.andi(x, y) : e.muli(x, y);
  }];
  let summary = "elementwise multiplication";
  let hasFolder = 1;
}
def Strata_DivideOp : Strata_BinaryElementwiseOp<"divide", Strata_NumericTensor,
    "Divides `lhs` by `rhs` elementwise; integer division truncates toward zero.",
    "%2 = strata.divide %0, %1 : tensor<4xf32>", [Strata_Expensive]> {
  let jaxprPrimitive = "div";
  let scalar = [{
    if (cx) return complex::DivOp::create(b, loc, x, y);
    return fl ? e.divf(x, y) : scalar::intDiv(e, x, y, uns);
  }];
  let summary = "elementwise division";
  let hasFolder = 1;
}
def Strata_RemainderOp : Strata_BinaryElementwiseOp<"remainder", Strata_RealNumericTensor,
    "The remainder of `lhs / rhs` elementwise, with the sign of `lhs` (C's fmod and %).",
    "%2 = strata.remainder %0, %1 : tensor<4xi32>", [Strata_Expensive]> {
  let jaxprPrimitive = "rem";
  let scalar = [{
    if (fl) return arith::RemFOp::create(b, loc, x, y);  // fmod
    return scalar::intRem(e, x, y, uns);
  }];
  let summary = "elementwise remainder";
}
def Strata_MaximumOp : Strata_BinaryElementwiseOp<"maximum", Strata_Tensor,
    "The larger of `lhs` and `rhs` elementwise; nan if either is nan. Complex numbers compare "
    "lexicographically, real parts first (as StableHLO).",
    "%2 = strata.maximum %0, %1 : tensor<4xf32>", [Commutative]> {
  let jaxprPrimitive = "max";
  let scalar = [{
    if (fl) return scalar::floatMax(e, x, y, /*max=*/true);
    if (cx) return scalar::complexMax(e, x, y, /*max=*/true);
    if (boolean) return e.ori(x, y);
    if (uns) return arith::MaxUIOp::create(b, loc, x, y);
    return arith::MaxSIOp::create(b, loc, x, y);
  }];
  let summary = "elementwise maximum";
  let hasFolder = 1;
}
def Strata_MinimumOp : Strata_BinaryElementwiseOp<"minimum", Strata_Tensor,
    "The smaller of `lhs` and `rhs` elementwise; nan if either is nan. Complex numbers compare "
    "lexicographically, real parts first (as StableHLO).",
    "%2 = strata.minimum %0, %1 : tensor<4xf32>", [Commutative]> {
  let jaxprPrimitive = "min";
  let scalar = [{
    if (fl) return scalar::floatMax(e, x, y, /*max=*/false);
    if (cx) return scalar::complexMax(e, x, y, /*max=*/false);
    if (boolean) return e.andi(x, y);
    if (uns) return arith::MinUIOp::create(b, loc, x, y);
    return arith::MinSIOp::create(b, loc, x, y);
  }];
  let summary = "elementwise minimum";
  let hasFolder = 1;
}
def Strata_PowerOp : Strata_BinaryElementwiseOp<"power", Strata_NumericTensor,
    "Raises `lhs` to the power `rhs` elementwise.",
    "%2 = strata.power %0, %1 : tensor<4xf32>", [Strata_Expensive]> {
  let jaxprPrimitive = "pow";
  let scalar = [{
    if (cx) return complex::PowOp::create(b, loc, x, y);
    if (fl) return math::PowFOp::create(b, loc, x, y);
    return scalar::intPow(e, x, y, uns);
  }];
  let summary = "elementwise power";
}

def Strata_Atan2Op : Strata_BinaryElementwiseOp<"atan2", Strata_FloatTensor,
    "The angle of the point (`rhs`, `lhs`) = (x, y) in (-pi, pi], elementwise, as C's atan2(y, x).",
    "%2 = strata.atan2 %0, %1 : tensor<4xf32>", [Strata_Expensive]> {
  let summary = "elementwise two-argument arctangent";
  let jaxprPrimitive = "atan2";
  let scalar = [{
    return math::Atan2Op::create(b, loc, x, y);
  }];
}
def Strata_NextAfterOp : Strata_BinaryElementwiseOp<"next_after", Strata_FloatTensor,
    "The representable value after `lhs` towards `rhs` in their own float type, elementwise, "
    "as C's nextafter (CHLO's next_after): `rhs` where they are equal, nan where either is "
    "nan, the least subnormal of `rhs`'s sign from zero.",
    "%2 = strata.next_after %0, %1 : tensor<4xf32>"> {
  let summary = "elementwise next representable value";
  let jaxprPrimitive = "nextafter";
  let movesStoredBits = 1;  // steps the stored bits: bf16 and f16 in their own precision
  let scalar = [{
    return scalar::nextAfter(e, x, y);
  }];
}
def Strata_IgammaOp : Strata_BinaryElementwiseOp<"igamma", Strata_FloatTensor,
    "The regularized lower incomplete gamma function P(`lhs`, `rhs`) = P(a, x), elementwise: "
    "its series or continued fraction iterated per element until it converges "
    "(tracer/incomplete_gamma.h, as XLA and JAX); nan for x < 0, a < 0 or a = x = 0.",
    "%2 = strata.igamma %0, %1 : tensor<4xf32>", [Strata_Expensive]> {
  let summary = "elementwise regularized incomplete gamma function";
  let jaxprPrimitive = "igamma";
  let scalar = [{
    return scalar::igamma(e, x, y);
  }];
}
def Strata_IgammacOp : Strata_BinaryElementwiseOp<"igammac", Strata_FloatTensor,
    "The regularized upper incomplete gamma function Q(`lhs`, `rhs`) = 1 - P(a, x), elementwise.",
    "%2 = strata.igammac %0, %1 : tensor<4xf32>", [Strata_Expensive]> {
  let summary = "elementwise complementary regularized incomplete gamma function";
  let jaxprPrimitive = "igammac";
  let scalar = [{
    return scalar::igammac(e, x, y);
  }];
}
def Strata_IgammaGradAOp : Strata_BinaryElementwiseOp<"igamma_grad_a", Strata_FloatTensor,
    "The derivative of P(a, x) in a, at (`lhs`, `rhs`) = (a, x), elementwise.",
    "%2 = strata.igamma_grad_a %0, %1 : tensor<4xf32>", [Strata_Expensive]> {
  let summary = "elementwise derivative of igamma in a";
  let jaxprPrimitive = "igamma_grad_a";
  let scalar = [{
    return scalar::igammaGradA(e, x, y);
  }];
}
def Strata_RandomGammaGradOp : Strata_BinaryElementwiseOp<"random_gamma_grad", Strata_FloatTensor,
    "The derivative in a of a Gamma(a, 1) sample x at fixed P(a, x), at (`lhs`, `rhs`) = (a, x), "
    "elementwise: -(dP/da) / (dP/dx).",
    "%2 = strata.random_gamma_grad %0, %1 : tensor<4xf32>", [Strata_Expensive]> {
  let summary = "elementwise implicit derivative of gamma samples";
  let jaxprPrimitive = "random_gamma_grad";
  let scalar = [{
    return scalar::randomGammaGrad(e, x, y);
  }];
}
def Strata_ZetaOp : Strata_BinaryElementwiseOp<"zeta", Strata_FloatTensor,
    "The Hurwitz zeta function of (`lhs`, `rhs`) = (x, q), the sum over k >= 0 of (q+k)^-x, "
    "elementwise: ten terms and the Euler-Maclaurin tail (tracer/zeta.h, as CHLO's zeta).",
    "%2 = strata.zeta %0, %1 : tensor<4xf32>", [Strata_Expensive]> {
  let summary = "elementwise Hurwitz zeta function";
  let jaxprPrimitive = "zeta";
  let scalar = [{
    return scalar::zeta(e, x, y);
  }];
}
def Strata_PolygammaOp : Strata_BinaryElementwiseOp<"polygamma", Strata_FloatTensor,
    "The polygamma function of (`lhs`, `rhs`) = (n, x): the n-th derivative of digamma at x, "
    "elementwise, for a whole n >= 0 (nan otherwise).",
    "%2 = strata.polygamma %0, %1 : tensor<4xf32>", [Strata_Expensive]> {
  let summary = "elementwise polygamma function";
  let jaxprPrimitive = "polygamma";
  let scalar = [{
    return scalar::polygamma(e, x, y);
  }];
}
def Strata_RegularizedIncompleteBetaOp : Strata_ElementwiseOp<"regularized_incomplete_beta",
    [SameOperandsAndResultType, Strata_Expensive]> {
  let jaxprPrimitive = "regularized_incomplete_beta";
  let scalar = [{
    return scalar::betainc(e, args[0], args[1], args[2]);
  }];
  let summary = "elementwise regularized incomplete beta function";
  let description = [{
    I_x(a, b) of (`a`, `b`, `x`) elementwise (jax.lax.betainc): a continued fraction evaluated
    per element by the modified Lentz method until it converges (tracer/incomplete_beta.h, as
    JAX); nan for a < 0, b < 0 or x outside [0, 1].

    Example:
    ```mlir
    %3 = strata.regularized_incomplete_beta %0, %1, %2 : tensor<4xf32>
    ```
  }];
  let arguments = (ins Strata_FloatTensor:$a, Strata_FloatTensor:$b, Strata_FloatTensor:$x);
  let results = (outs Strata_FloatTensor:$result);
  let assemblyFormat = "$a `,` $b `,` $x attr-dict `:` type($result)";
}
def Strata_IntegerPowOp : Strata_ElementwiseOp<"integer_pow", [SameOperandsAndResultType]> {
  let scalar = [{
    return scalar::integerPow(e, x, getYAttr().getInt());  // signed (getY() is unsigned)
  }];
  let summary = "elementwise power with a static integer exponent";
  let description = [{
    Raises `operand` to the static integer power `y` elementwise by repeated squaring
    (jax.lax.integer_pow): multiplications only, in the compute type; `y` = 0 gives 1, a
    negative `y` gives 1 / x^|y| and is allowed on floats only. Integers wrap on overflow.

    Example:
    ```mlir
    %1 = strata.integer_pow %0, 3 : tensor<4xf32>
    ```
  }];
  let arguments = (ins Strata_NumericTensor:$operand, I64Attr:$y);
  let results = (outs Strata_NumericTensor:$result);
  let assemblyFormat = "$operand `,` $y attr-dict `:` type($result)";
  let hasVerifier = 1;
}

// --- Bitwise and logical.

def Strata_AndOp : Strata_BinaryElementwiseOp<"and", Strata_PredOrIntTensor,
    "Logical (on `i1`) or bitwise (on integers) and of `lhs` and `rhs`, elementwise.",
    "%2 = strata.and %0, %1 : tensor<4xi1>", [Commutative]> {
  let jaxprPrimitive = "and";
  let scalar = [{
    return e.andi(x, y);
  }];
  let summary = "elementwise and";
  let hasFolder = 1;
}
def Strata_OrOp : Strata_BinaryElementwiseOp<"or", Strata_PredOrIntTensor,
    "Logical (on `i1`) or bitwise (on integers) or of `lhs` and `rhs`, elementwise.",
    "%2 = strata.or %0, %1 : tensor<4xi1>", [Commutative]> {
  let jaxprPrimitive = "or";
  let scalar = [{
    return e.ori(x, y);
  }];
  let summary = "elementwise or";
  let hasFolder = 1;
}
def Strata_ShiftRightLogicalOp : Strata_BinaryElementwiseOp<"shift_right_logical",
    Strata_IntTensor,
    "Shifts the bits of `lhs` right by `rhs`, shifting in zeros; by the bit width or more gives 0.",
    "%2 = strata.shift_right_logical %0, %1 : tensor<4xi32>"> {
  let jaxprPrimitive = "shift_right_logical";
  let scalar = [{
    return scalar::shiftRightLogical(e, x, y);
  }];
  let summary = "elementwise logical right shift";
}
def Strata_ShiftLeftOp : Strata_BinaryElementwiseOp<"shift_left",
    Strata_IntTensor,
    "Shifts the bits of `lhs` left by `rhs`, shifting in zeros; by the bit width or more, or a negative amount, gives 0.",
    "%2 = strata.shift_left %0, %1 : tensor<4xi32>"> {
  let jaxprPrimitive = "shift_left";
  let scalar = [{
    return scalar::shiftLeft(e, x, y);
  }];
  let summary = "elementwise left shift";
}
def Strata_ShiftRightArithmeticOp : Strata_BinaryElementwiseOp<"shift_right_arithmetic",
    Strata_IntTensor,
    "Shifts the bits of `lhs` right by `rhs`, shifting in the sign bit; by the bit width or more, or a negative amount, gives 0 or -1 by the sign of `lhs`.",
    "%2 = strata.shift_right_arithmetic %0, %1 : tensor<4xi32>"> {
  let jaxprPrimitive = "shift_right_arithmetic";
  let scalar = [{
    Type t = x.getType();
    unsigned width = t.getIntOrFloatBitWidth();
    Value ok = e.cmpi(arith::CmpIPredicate::ult, y, e.intC(t, width));  // y < 0 too
    return arith::ShRSIOp::create(b, loc, x, e.select(ok, y, e.intC(t, width - 1)));
  }];
  let summary = "elementwise arithmetic right shift";
}
def Strata_XorOp : Strata_BinaryElementwiseOp<"xor", Strata_PredOrIntTensor,
    "Logical (on `i1`) or bitwise (on integers) exclusive or of `lhs` and `rhs`, elementwise.",
    "%2 = strata.xor %0, %1 : tensor<4xi1>", [Commutative]> {
  let jaxprPrimitive = "xor";
  let scalar = [{
    return e.xori(x, y);
  }];
  let summary = "elementwise exclusive or";
}
def Strata_PopulationCountOp : Strata_UnaryElementwiseOp<"population_count", Strata_IntTensor,
    "The number of set bits of `operand`, elementwise.",
    "%1 = strata.population_count %0 : tensor<4xi32>"> {
  let jaxprPrimitive = "population_count";
  let scalar = [{
    return math::CtPopOp::create(b, loc, x);
  }];
  let summary = "elementwise population count";
}
def Strata_ClzOp : Strata_UnaryElementwiseOp<"clz", Strata_IntTensor,
    "The number of leading zero bits of `operand` (its bit width for 0), elementwise.",
    "%1 = strata.clz %0 : tensor<4xi32>"> {
  let jaxprPrimitive = "clz";
  let scalar = [{
    return math::CountLeadingZerosOp::create(b, loc, x);
  }];
  let summary = "elementwise count of leading zeros";
}
def Strata_NotOp : Strata_UnaryElementwiseOp<"not", Strata_PredOrIntTensor,
    "Logical (on `i1`) or bitwise (on integers) negation, elementwise.",
    "%1 = strata.not %0 : tensor<4xi1>"> {
  let jaxprPrimitive = "not";
  let scalar = [{
    return e.xori(x, e.intC(x.getType(), -1));
  }];
  let summary = "elementwise not";
  let hasFolder = 1;
}

// --- Unary arithmetic.

def Strata_NegateOp : Strata_UnaryElementwiseOp<"negate", Strata_NumericTensor,
    "Negates `operand` elementwise.", "%1 = strata.negate %0 : tensor<4xf32>"> {
  let jaxprPrimitive = "neg";
  let scalar = [{
    if (cx) return complex::NegOp::create(b, loc, x);
    if (fl) return e.negf(x);
    return e.subi(e.intC(x.getType(), 0), x);
  }];
  let summary = "elementwise negation";
  let hasFolder = 1;
}
def Strata_AbsOp : Strata_ElementwiseOp<"abs"> {
  let jaxprPrimitive = "abs";
  let scalar = [{
    if (cx) return complex::AbsOp::create(b, loc, x);
    if (fl) return e.absf(x);
    if (uns) return x;
    return math::AbsIOp::create(b, loc, x);
  }];
  let summary = "elementwise absolute value";
  let description = [{
    The absolute value of `operand`, elementwise; of a complex number, its modulus (a real
    result: complex<f32> -> f32). One type after the colon means the result's is the operand's.

    Example:
    ```mlir
    %1 = strata.abs %0 : tensor<4xf32>
    %2 = strata.abs %z : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Strata_NumericTensor:$operand);
  let results = (outs Strata_RealNumericTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` custom<UnaryTypes>(type($operand), type($result))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

// --- Complex numbers: their parts, and built from parts.

def Strata_RealOp : Strata_ElementwiseOp<"real"> {
  let jaxprPrimitive = "real";
  let scalar = [{
    return complex::ReOp::create(b, loc, x);
  }];
  let summary = "the real part of a complex number, elementwise";
  let description = [{
    The real part of each element (complex<f32> -> f32, complex<f64> -> f64).

    Example:
    ```mlir
    %1 = strata.real %0 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Strata_ComplexTensor:$operand);
  let results = (outs Strata_FloatTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}
def Strata_ImagOp : Strata_ElementwiseOp<"imag"> {
  let jaxprPrimitive = "imag";
  let scalar = [{
    return complex::ImOp::create(b, loc, x);
  }];
  let summary = "the imaginary part of a complex number, elementwise";
  let description = [{
    The imaginary part of each element (complex<f32> -> f32, complex<f64> -> f64).

    Example:
    ```mlir
    %1 = strata.imag %0 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Strata_ComplexTensor:$operand);
  let results = (outs Strata_FloatTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}
def Strata_ComplexOp : Strata_ElementwiseOp<"complex", [SameTypeOperands]> {
  let jaxprPrimitive = "complex";
  let scalar = [{
    return complex::CreateOp::create(b, loc, resultType, x, y);
  }];
  let summary = "complex numbers from their parts, elementwise";
  let description = [{
    `lhs` + i·`rhs` elementwise, from two f32 (or f64) tensors of one type.

    Example (StableHLO's short form: the result's type; the parts' are its element's parts):
    ```mlir
    %2 = strata.complex %0, %1 : tensor<4xcomplex<f32>>
    %3 = strata.complex %0, %1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xcomplex<f32>>
    ```
  }];
  let arguments = (ins Strata_FloatTensor:$lhs, Strata_FloatTensor:$rhs);
  let results = (outs Strata_ComplexTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` custom<ComplexTypes>(type($lhs), type($rhs), type($result))";
  let hasVerifier = 1;
}
def Strata_SignOp : Strata_UnaryElementwiseOp<"sign", Strata_NumericTensor,
    "-1, 0 or 1 by the sign of `operand`, elementwise (nan stays nan, -0.0 stays -0.0).",
    "%1 = strata.sign %0 : tensor<4xf32>"> {
  let jaxprPrimitive = "sign";
  let scalar = [{
    if (cx) return complex::SignOp::create(b, loc, x);
    return scalar::sign(e, x, uns);
  }];
  let summary = "elementwise sign";
}
def Strata_ExpOp : Strata_UnaryElementwiseOp<"exponential", Strata_InexactTensor,
    "e raised to `operand`, elementwise.", "%1 = strata.exponential %0 : tensor<4xf32>",
    [Strata_Expensive]> {
  let jaxprPrimitive = "exp";
  let scalar = [{
    if (cx) return complex::ExpOp::create(b, loc, x);
    return e.exp(x);
  }];
  let summary = "elementwise exponential";
  let hasFolder = 1;
}
def Strata_LogOp : Strata_UnaryElementwiseOp<"log", Strata_InexactTensor,
    "The natural logarithm of `operand`, elementwise.", "%1 = strata.log %0 : tensor<4xf32>",
    [Strata_Expensive]> {
  let jaxprPrimitive = "log";
  let scalar = [{
    if (cx) return scalar::complexLog(e, x);
    return math::LogOp::create(b, loc, x);
  }];
  let summary = "elementwise natural logarithm";
  let hasFolder = 1;
}
def Strata_Log1pOp : Strata_UnaryElementwiseOp<"log_plus_one", Strata_InexactTensor,
    "log(1 + `operand`) elementwise, accurate near zero.",
    "%1 = strata.log_plus_one %0 : tensor<4xf32>", [Strata_Expensive]> {
  let jaxprPrimitive = "log1p";
  let scalar = [{
    if (cx) return scalar::complexLog1p(e, x);
    return math::Log1pOp::create(b, loc, x);
  }];
  let summary = "elementwise log(1 + x)";
}
def Strata_Expm1Op : Strata_UnaryElementwiseOp<"exponential_minus_one", Strata_InexactTensor,
    "exp(`operand`) - 1 elementwise, accurate near zero.",
    "%1 = strata.exponential_minus_one %0 : tensor<4xf32>", [Strata_Expensive]> {
  let jaxprPrimitive = "expm1";
  let scalar = [{
    if (cx) return scalar::complexExpm1(e, x);
    return math::ExpM1Op::create(b, loc, x);
  }];
  let summary = "elementwise exp(x) - 1";
}
def Strata_Exp2Op : Strata_UnaryElementwiseOp<"exp2", Strata_FloatTensor,
    "2 raised to `operand`, elementwise.",
    "%1 = strata.exp2 %0 : tensor<4xf32>", [Strata_Expensive]> {
  let summary = "elementwise base-2 exponential";
  let jaxprPrimitive = "exp2";
  let scalar = [{
    return math::Exp2Op::create(b, loc, x);
  }];
}
def Strata_TanhOp : Strata_UnaryElementwiseOp<"tanh", Strata_InexactTensor,
    "The hyperbolic tangent of `operand`, elementwise.", "%1 = strata.tanh %0 : tensor<4xf32>",
    [Strata_Expensive]> {
  let jaxprPrimitive = "tanh";
  let scalar = [{
    if (cx) return scalar::complexTanh(e, x);
    return math::TanhOp::create(b, loc, x);
  }];
  let summary = "elementwise hyperbolic tangent";
  let hasFolder = 1;
}
def Strata_SinhOp : Strata_UnaryElementwiseOp<"sinh", Strata_InexactTensor,
    "The hyperbolic sine of `operand`, elementwise.",
    "%1 = strata.sinh %0 : tensor<4xf32>", [Strata_Expensive]> {
  let summary = "elementwise hyperbolic sine";
  let jaxprPrimitive = "sinh";
  let scalar = [{
    if (cx) return scalar::complexSinh(e, x);
    return math::SinhOp::create(b, loc, x);
  }];
}
def Strata_CoshOp : Strata_UnaryElementwiseOp<"cosh", Strata_InexactTensor,
    "The hyperbolic cosine of `operand`, elementwise.",
    "%1 = strata.cosh %0 : tensor<4xf32>", [Strata_Expensive]> {
  let summary = "elementwise hyperbolic cosine";
  let jaxprPrimitive = "cosh";
  let scalar = [{
    if (cx) return scalar::complexCosh(e, x);
    return math::CoshOp::create(b, loc, x);
  }];
}
def Strata_AsinhOp : Strata_UnaryElementwiseOp<"asinh", Strata_InexactTensor,
    "The inverse hyperbolic sine of `operand`, elementwise.",
    "%1 = strata.asinh %0 : tensor<4xf32>", [Strata_Expensive]> {
  let summary = "elementwise inverse hyperbolic sine";
  let jaxprPrimitive = "asinh";
  let scalar = [{
    if (cx) return scalar::complexAsinh(e, x);
    return math::AsinhOp::create(b, loc, x);
  }];
}
def Strata_AcoshOp : Strata_UnaryElementwiseOp<"acosh", Strata_InexactTensor,
    "The inverse hyperbolic cosine of `operand`, elementwise (nan below 1).",
    "%1 = strata.acosh %0 : tensor<4xf32>", [Strata_Expensive]> {
  let summary = "elementwise inverse hyperbolic cosine";
  let jaxprPrimitive = "acosh";
  let scalar = [{
    if (cx) return scalar::complexAcosh(e, x);
    return math::AcoshOp::create(b, loc, x);
  }];
}
def Strata_AtanhOp : Strata_UnaryElementwiseOp<"atanh", Strata_InexactTensor,
    "The inverse hyperbolic tangent of `operand`, elementwise (+-inf at +-1, nan beyond).",
    "%1 = strata.atanh %0 : tensor<4xf32>", [Strata_Expensive]> {
  let summary = "elementwise inverse hyperbolic tangent";
  let jaxprPrimitive = "atanh";
  let scalar = [{
    if (cx) return scalar::complexAtanh(e, x);
    return math::AtanhOp::create(b, loc, x);
  }];
}
def Strata_ErfOp : Strata_UnaryElementwiseOp<"erf", Strata_FloatTensor,
    "2/sqrt(pi) times the integral of exp(-t^2) from 0 to `operand`, elementwise.",
    "%1 = strata.erf %0 : tensor<4xf32>", [Strata_Expensive]> {
  let summary = "elementwise error function";
  let jaxprPrimitive = "erf";
  let scalar = [{
    return math::ErfOp::create(b, loc, x);
  }];
}
def Strata_ErfcOp : Strata_UnaryElementwiseOp<"erfc", Strata_FloatTensor,
    "1 - erf(`operand`) elementwise, accurate where erf is near 1.",
    "%1 = strata.erfc %0 : tensor<4xf32>", [Strata_Expensive]> {
  let summary = "elementwise complementary error function";
  let jaxprPrimitive = "erfc";
  let scalar = [{
    return math::ErfcOp::create(b, loc, x);
  }];
}
def Strata_LogisticOp : Strata_UnaryElementwiseOp<"logistic", Strata_InexactTensor,
    "1 / (1 + exp(-`operand`)) elementwise.", "%1 = strata.logistic %0 : tensor<4xf32>",
    [Strata_Expensive]> {
  let jaxprPrimitive = "logistic";
  let scalar = [{
    return scalar::logistic(e, x);
  }];
  let summary = "elementwise logistic sigmoid";
}
def Strata_SineOp : Strata_UnaryElementwiseOp<"sine", Strata_InexactTensor,
    "The sine of `operand` (radians), elementwise.", "%1 = strata.sine %0 : tensor<4xf32>",
    [Strata_Expensive]> {
  let jaxprPrimitive = "sin";
  let scalar = [{
    if (cx) return scalar::complexSin(e, x);
    return math::SinOp::create(b, loc, x);
  }];
  let summary = "elementwise sine";
  let hasFolder = 1;
}
def Strata_CosineOp : Strata_UnaryElementwiseOp<"cosine", Strata_InexactTensor,
    "The cosine of `operand` (radians), elementwise.", "%1 = strata.cosine %0 : tensor<4xf32>",
    [Strata_Expensive]> {
  let jaxprPrimitive = "cos";
  let scalar = [{
    if (cx) return scalar::complexCos(e, x);
    return math::CosOp::create(b, loc, x);
  }];
  let summary = "elementwise cosine";
  let hasFolder = 1;
}
def Strata_TanOp : Strata_UnaryElementwiseOp<"tan", Strata_InexactTensor,
    "The tangent of `operand` (radians), elementwise.",
    "%1 = strata.tan %0 : tensor<4xf32>", [Strata_Expensive]> {
  let summary = "elementwise tangent";
  let jaxprPrimitive = "tan";
  let scalar = [{
    if (cx) return scalar::complexTan(e, x);
    return math::TanOp::create(b, loc, x);
  }];
}
def Strata_AsinOp : Strata_UnaryElementwiseOp<"asin", Strata_InexactTensor,
    "The arcsine of `operand`, elementwise (nan outside [-1, 1]).",
    "%1 = strata.asin %0 : tensor<4xf32>", [Strata_Expensive]> {
  let summary = "elementwise arcsine";
  let jaxprPrimitive = "asin";
  let scalar = [{
    if (cx) return scalar::complexAsin(e, x);
    return math::AsinOp::create(b, loc, x);
  }];
}
def Strata_AcosOp : Strata_UnaryElementwiseOp<"acos", Strata_InexactTensor,
    "The arccosine of `operand`, elementwise (nan outside [-1, 1]).",
    "%1 = strata.acos %0 : tensor<4xf32>", [Strata_Expensive]> {
  let summary = "elementwise arccosine";
  let jaxprPrimitive = "acos";
  let scalar = [{
    if (cx) return scalar::complexAcos(e, x);
    return math::AcosOp::create(b, loc, x);
  }];
}
def Strata_AtanOp : Strata_UnaryElementwiseOp<"atan", Strata_InexactTensor,
    "The arctangent of `operand`, elementwise.",
    "%1 = strata.atan %0 : tensor<4xf32>", [Strata_Expensive]> {
  let summary = "elementwise arctangent";
  let jaxprPrimitive = "atan";
  let scalar = [{
    if (cx) return scalar::complexAtan(e, x);
    return math::AtanOp::create(b, loc, x);
  }];
}
def Strata_SqrtOp : Strata_UnaryElementwiseOp<"sqrt", Strata_InexactTensor,
    "The square root of `operand`, elementwise.", "%1 = strata.sqrt %0 : tensor<4xf32>",
    [Strata_Expensive]> {
  let jaxprPrimitive = "sqrt";
  let scalar = [{
    if (cx) return scalar::complexSqrt(e, x);
    return math::SqrtOp::create(b, loc, x);
  }];
  let summary = "elementwise square root";
  let hasFolder = 1;
}
def Strata_RsqrtOp : Strata_UnaryElementwiseOp<"rsqrt", Strata_InexactTensor,
    "1 / sqrt(`operand`) elementwise.", "%1 = strata.rsqrt %0 : tensor<4xf32>",
    [Strata_Expensive]> {
  let jaxprPrimitive = "rsqrt";
  let scalar = [{
    if (cx) return scalar::complexRsqrt(e, x);
    // 1 / sqrt (a correctly rounded sqrt, then a division), not an rsqrt estimate.
    return e.divf(e.floatC(x.getType(), 1.0), math::SqrtOp::create(b, loc, x));
  }];
  let summary = "elementwise reciprocal square root";
  let hasFolder = 1;
}
def Strata_CbrtOp : Strata_UnaryElementwiseOp<"cbrt", Strata_FloatTensor,
    "The real cube root of `operand`, elementwise.",
    "%1 = strata.cbrt %0 : tensor<4xf32>", [Strata_Expensive]> {
  let summary = "elementwise cube root";
  let jaxprPrimitive = "cbrt";
  let scalar = [{
    return math::CbrtOp::create(b, loc, x);
  }];
}
def Strata_ErfInvOp : Strata_UnaryElementwiseOp<"erf_inv", Strata_FloatTensor,
    "The inverse error function of `operand`, elementwise: ±inf at ±1, nan outside [-1, 1]. "
    "Giles' polynomial approximations (single precision for f32, bf16 and f16; double for f64).",
    "%1 = strata.erf_inv %0 : tensor<4xf32>", [Strata_Expensive]> {
  let summary = "elementwise inverse error function";
  let jaxprPrimitive = "erf_inv";
  let scalar = [{
    return scalar::erfInv(e, x);
  }];
}
def Strata_LgammaOp : Strata_UnaryElementwiseOp<"lgamma", Strata_FloatTensor,
    "log|Gamma(`operand`)| elementwise: +inf at the poles 0, -1, -2, ... and at +-inf. The "
    "Lanczos approximation of tracer/gamma_lanczos.h (XLA's and CHLO's).",
    "%1 = strata.lgamma %0 : tensor<4xf32>", [Strata_Expensive]> {
  let summary = "elementwise log-gamma function";
  let jaxprPrimitive = "lgamma";
  let scalar = [{
    return scalar::lgamma(e, x);
  }];
}
def Strata_BesselI0eOp : Strata_UnaryElementwiseOp<"bessel_i0e", Strata_FloatTensor,
    "e^-|x| I0(x) of `operand`, elementwise: Cephes' Chebyshev expansions (tracer/bessel_i.h).",
    "%1 = strata.bessel_i0e %0 : tensor<4xf32>", [Strata_Expensive]> {
  let summary = "elementwise exponentially scaled modified Bessel function of order 0";
  let jaxprPrimitive = "bessel_i0e";
  let scalar = [{
    return scalar::besselI0e(e, x);
  }];
}
def Strata_BesselI1eOp : Strata_UnaryElementwiseOp<"bessel_i1e", Strata_FloatTensor,
    "e^-|x| I1(x) of `operand`, elementwise: Cephes' Chebyshev expansions (tracer/bessel_i.h).",
    "%1 = strata.bessel_i1e %0 : tensor<4xf32>", [Strata_Expensive]> {
  let summary = "elementwise exponentially scaled modified Bessel function of order 1";
  let jaxprPrimitive = "bessel_i1e";
  let scalar = [{
    return scalar::besselI1e(e, x);
  }];
}
def Strata_DigammaOp : Strata_UnaryElementwiseOp<"digamma", Strata_FloatTensor,
    "The digamma function Gamma'(x)/Gamma(x) of `operand`, elementwise: nan at the poles 0, -1, "
    "-2, .... The Lanczos approximation of tracer/gamma_lanczos.h (XLA's and CHLO's).",
    "%1 = strata.digamma %0 : tensor<4xf32>", [Strata_Expensive]> {
  let summary = "elementwise digamma function";
  let jaxprPrimitive = "digamma";
  let scalar = [{
    return scalar::digamma(e, x);
  }];
}
def Strata_FloorOp : Strata_UnaryElementwiseOp<"floor", Strata_FloatTensor,
    "The largest integer not above `operand`, elementwise.",
    "%1 = strata.floor %0 : tensor<4xf32>"> {
  let jaxprPrimitive = "floor";
  let scalar = [{
    return math::FloorOp::create(b, loc, x);
  }];
  let summary = "elementwise floor";
  let hasFolder = 1;
}
def Strata_CeilOp : Strata_UnaryElementwiseOp<"ceil", Strata_FloatTensor,
    "The smallest integer not below `operand`, elementwise.",
    "%1 = strata.ceil %0 : tensor<4xf32>"> {
  let jaxprPrimitive = "ceil";
  let scalar = [{
    return math::CeilOp::create(b, loc, x);
  }];
  let summary = "elementwise ceiling";
  let hasFolder = 1;
}

def Strata_RoundingMethod : I32EnumAttr<"RoundingMethod",
    "how `strata.round` rounds halfway cases (jax.lax.RoundingMethod)", [
      I32EnumAttrCase<"AWAY_FROM_ZERO", 0>, I32EnumAttrCase<"TO_NEAREST_EVEN", 1>]> {
  let cppNamespace = "::mlir::strata";
}
def Strata_RoundOp : Strata_ElementwiseOp<"round", [SameOperandsAndResultType]> {
  let scalar = [{
    if (getRoundingMethod() == RoundingMethod::TO_NEAREST_EVEN)
      return math::RoundEvenOp::create(b, loc, x);
    return math::RoundOp::create(b, loc, x);
  }];
  let summary = "elementwise rounding to an integer value";
  let description = [{
    Rounds `operand` to the nearest integer value elementwise, halfway cases by
    `rounding_method`: AWAY_FROM_ZERO or TO_NEAREST_EVEN (jax.lax.round's two methods).
    ±0, ±inf and nan are kept.

    Example:
    ```mlir
    %1 = strata.round TO_NEAREST_EVEN, %0 : tensor<4xf32>
    ```
  }];
  let arguments = (ins Strata_RoundingMethod:$rounding_method, Strata_FloatTensor:$operand);
  let results = (outs Strata_FloatTensor:$result);
  let assemblyFormat = "$rounding_method `,` $operand attr-dict `:` type($result)";
}
def Strata_IsFiniteOp : Strata_ElementwiseOp<"is_finite"> {
  let jaxprPrimitive = "is_finite";
  let scalar = [{
    // |x| < inf: false for ±inf and (unordered) nan.
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, math::AbsFOp::create(b, loc, x),
                                 e.floatC(x.getType(), std::numeric_limits<double>::infinity()));
  }];
  let summary = "elementwise finiteness test";
  let description = [{
    True (`i1`) where `operand` is neither ±inf nor nan, elementwise.

    Example:
    ```mlir
    %1 = strata.is_finite %0 : (tensor<4xf32>) -> tensor<4xi1>
    ```
  }];
  let arguments = (ins Strata_FloatTensor:$operand);
  let results = (outs Strata_PredTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type(operands, results)";
}

// --- Comparison, selection, conversion.

def Strata_ComparisonDirection : I32EnumAttr<"ComparisonDirection",
    "which comparison `strata.compare` makes", [
      I32EnumAttrCase<"EQ", 0>, I32EnumAttrCase<"NE", 1>, I32EnumAttrCase<"LT", 2>,
      I32EnumAttrCase<"LE", 3>, I32EnumAttrCase<"GT", 4>, I32EnumAttrCase<"GE", 5>]> {
  let cppNamespace = "::mlir::strata";
}

def Strata_ComparisonType : I32EnumAttr<"ComparisonType",
    "how `strata.compare` orders its operands (StableHLO's comparison type)", [
      I32EnumAttrCase<"NOTYPE", 0>, I32EnumAttrCase<"FLOAT", 1>, I32EnumAttrCase<"TOTALORDER", 2>,
      I32EnumAttrCase<"SIGNED", 3>, I32EnumAttrCase<"UNSIGNED", 4>]> {
  let cppNamespace = "::mlir::strata";
}

def Strata_CompareOp : Strata_ElementwiseOp<"compare",
    [SameTypeOperands, InferTypeOpAdaptor]> {
  let scalar = [{
    std::optional<ComparisonType> type = getCompareType();
    if (uns && (!type || *type == ComparisonType::SIGNED || *type == ComparisonType::NOTYPE))
      type = ComparisonType::UNSIGNED;
    return scalar::compare(e, getComparisonDirection(), x, y, type);
  }];
  let summary = "elementwise comparison";
  let description = [{
    Compares `lhs` with `rhs` elementwise by `comparison_direction` (EQ, NE, LT, LE, GT, GE),
    giving `i1`; comparisons with nan are false except NE. An optional `compare_type`
    (StableHLO's): TOTALORDER orders floats totally (-nan < -inf < ... < -0 < +0 < ... < nan),
    UNSIGNED compares integers as unsigned; FLOAT and SIGNED are the default orders.

    Example:
    ```mlir
    %2 = strata.compare LT, %0, %1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %3 = strata.compare LT, %0, %1, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    ```
  }];
  let arguments = (ins Strata_ComparisonDirection:$comparison_direction,
                       Strata_Tensor:$lhs, Strata_Tensor:$rhs,
                       OptionalAttr<Strata_ComparisonType>:$compare_type);
  let results = (outs Strata_PredTensor:$result);
  let assemblyFormat = [{
    $comparison_direction `,` $lhs `,` $rhs (`,` $compare_type^)? attr-dict `:` functional-type(operands, results)
  }];
  let builders = [
    OpBuilder<(ins "Type":$result, "ComparisonDirection":$direction, "Value":$lhs, "Value":$rhs), [{
      build($_builder, $_state, result, direction, lhs, rhs, ComparisonTypeAttr());
    }]>];
  let hasVerifier = 1;
}

def Strata_SelectOp : Strata_ElementwiseOp<"select",
    [AllTypesMatch<["on_true", "on_false", "result"]>]> {
  let jaxprPrimitive = "select";
  let movesStoredBits = 1;
  let scalar = [{
    return e.select(args[0], args[1], args[2]);
  }];
  let summary = "elementwise selection";
  let description = [{
    Takes `on_true` where `pred` holds and `on_false` elsewhere (all of one shape).

    Example:
    ```mlir
    %3 = strata.select %0, %1, %2 : tensor<4xi1>, tensor<4xf32>
    ```
  }];
  let arguments = (ins Strata_PredTensor:$pred, Strata_Tensor:$on_true, Strata_Tensor:$on_false);
  let results = (outs Strata_Tensor:$result);
  let assemblyFormat = [{
    $pred `,` $on_true `,` $on_false attr-dict `:` type($pred) `,` type($result)
  }];
  let hasFolder = 1;
}

def Strata_ConvertOp : Strata_ElementwiseOp<"convert"> {
  let jaxprPrimitive = "convert_element_type";
  let scalar = [{
    return emitConvert(b, loc, x, getOperand().getType().getElementType(), resultType, uns,
                       unsignedResult(getOperation()));
  }];
  let summary = "elementwise type conversion";
  let description = [{
    Converts each element to the result's element type (floats to integers truncate toward
    zero; to `i1` is `!= 0`). One type after the colon (StableHLO's spelling) means the
    operand's type is the result's.

    Example:
    ```mlir
    %1 = strata.convert %0 : (tensor<4xf32>) -> tensor<4xi32>
    ```
  }];
  let arguments = (ins Strata_Tensor:$operand);
  let results = (outs Strata_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` custom<UnaryTypes>(type($operand), type($result))";
  let hasFolder = 1;
}

def Strata_BitcastConvertOp : Strata_ElementwiseOp<"bitcast_convert"> {
  let jaxprPrimitive = "bitcast_convert_type";
  let movesStoredBits = 1;
  let scalar = [{
    return arith::BitcastOp::create(b, loc, resultType, x);
  }];
  let summary = "elementwise reinterpretation of bits";
  let description = [{
    Reinterprets the bits of each element as the result's element type, of the same width.

    Example:
    ```mlir
    %1 = strata.bitcast_convert %0 : (tensor<4xi32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Strata_Tensor:$operand);
  let results = (outs Strata_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------------------===//
// Shape and data movement.
//===----------------------------------------------------------------------------------===//

def Strata_BroadcastInDimOp : Strata_Op<"broadcast_in_dim", 
    [Pure, DeclareOpInterfaceMethods<Strata_IndexMapOpInterface>]> {
  let summary = "broadcast into a larger shape";
  let description = [{
    Operand dimension i becomes result dimension `broadcast_dimensions[i]`; size-1 and new
    dimensions repeat the data.

    Example:
    ```mlir
    %1 = strata.broadcast_in_dim %c, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>
    ```
  }];
  let arguments = (ins Strata_Tensor:$operand, DenseI64ArrayAttr:$broadcast_dimensions);
  let results = (outs Strata_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` $broadcast_dimensions attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Strata_ReshapeOp : Strata_Op<"reshape", 
    [Pure, DeclareOpInterfaceMethods<Strata_IndexMapOpInterface>]> {
  let summary = "the same elements under another shape";
  let description = [{
    Gives the operand's elements, in row-major order, the result's shape (same element count).

    Example:
    ```mlir
    %1 = strata.reshape %0 : (tensor<2x3xf32>) -> tensor<6xf32>
    ```
  }];
  let arguments = (ins Strata_Tensor:$operand);
  let results = (outs Strata_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Strata_TransposeOp : Strata_Op<"transpose", 
    [Pure, DeclareOpInterfaceMethods<Strata_IndexMapOpInterface>, InferTypeOpAdaptor]> {
  let summary = "permute dimensions";
  let description = [{
    Result dimension i is operand dimension `permutation[i]`.

    Example:
    ```mlir
    %1 = strata.transpose %0, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins Strata_Tensor:$operand, DenseI64ArrayAttr:$permutation);
  let results = (outs Strata_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` $permutation attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Strata_SliceOp : Strata_Op<"slice", 
    [Pure, DeclareOpInterfaceMethods<Strata_IndexMapOpInterface>, InferTypeOpAdaptor]> {
  let summary = "a strided box of elements";
  let description = [{
    Takes the elements at `start + k * stride` below `limit` in each dimension; the ranges print
    as `[start:limit:stride, ...]`, with a stride of 1 left out.

    Example:
    ```mlir
    %1 = strata.slice %0 [1:3, 0:8:2] : (tensor<4x8xf32>) -> tensor<2x4xf32>
    ```
  }];
  let arguments = (ins Strata_Tensor:$operand, DenseI64ArrayAttr:$start_indices,
                       DenseI64ArrayAttr:$limit_indices, DenseI64ArrayAttr:$strides);
  let results = (outs Strata_Tensor:$result);
  let assemblyFormat = [{
    $operand custom<SliceRanges>($start_indices, $limit_indices, $strides) attr-dict
    `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Strata_PadOp : Strata_Op<"pad", [Pure, InferTypeOpAdaptor]> {
  let summary = "surround and interleave with a padding value";
  let description = [{
    Puts `edge_padding_low` and `edge_padding_high` copies of the 0-d `padding_value` before
    and after each dimension, and `interior_padding` copies between its elements.

    Example:
    ```mlir
    %2 = strata.pad %0, %1, low = [1, 0], high = [0, 2], interior = [0, 1]
        : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x7xf32>
    ```
  }];
  let arguments = (ins Strata_Tensor:$operand, Strata_Tensor:$padding_value,
                       DenseI64ArrayAttr:$edge_padding_low, DenseI64ArrayAttr:$edge_padding_high,
                       DenseI64ArrayAttr:$interior_padding);
  let results = (outs Strata_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` $padding_value `,` `low` `=` $edge_padding_low `,` `high` `=` $edge_padding_high
    `,` `interior` `=` $interior_padding attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Strata_ConcatenateOp : Strata_Op<"concatenate", [Pure, SameOperandsAndResultElementType,
                                                    InferTypeOpAdaptor]> {
  let summary = "join tensors along a dimension";
  let description = [{
    Joins `inputs`, in order, along `dimension`; they agree in every other dimension.

    Example:
    ```mlir
    %2 = strata.concatenate %0, %1, dim = 0 : (tensor<3xf32>, tensor<4xf32>) -> tensor<7xf32>
    ```
  }];
  let arguments = (ins Variadic<Strata_Tensor>:$inputs, I64Attr:$dimension);
  let results = (outs Strata_Tensor:$result);
  let assemblyFormat = [{
    custom<ConcatenateInputs>($inputs, $dimension) attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------------------===//
// Reductions and regions.
//===----------------------------------------------------------------------------------===//

// The scalar bodies below (reduce, sort, reduce_window, select_and_scatter) are functions of
// their arguments, as in StableHLO: IsolatedFromAbove, so the verifier rejects a body using an
// outer value and CSE never makes one capture (their lowerings map only the arguments).
def Strata_ReduceOp : Strata_Op<"reduce", [RecursiveMemoryEffects, AttrSizedOperandSegments,
                                          InferTypeOpAdaptor, SingleBlock, IsolatedFromAbove]> {
  let summary = "reduce dimensions with a body";
  let description = [{
    Reduces `dimensions` of the N `inputs` (of one shape) by the body, starting from the N
    0-d `init_values`; the body takes 2N 0-d tensors (accumulators, then elements) and returns
    N, as StableHLO's reduce.

    Example:
    ```mlir
    %1 = strata.reduce(%0 init: %zero) across dimensions = [1]
        : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32> {
    ^bb0(%acc: tensor<f32>, %x: tensor<f32>):
      %s = strata.add %acc, %x : tensor<f32>
      strata.return %s : tensor<f32>
    }
    ```
    StableHLO's spellings parse too: one `(input init: value)` group an input, and the body
    either as `applies strata.add` (one op of each accumulator and element) before `across`,
    or as `reducer(%acc0: T, %x0: T) (%acc1: U, %x1: U) { ... }`.
  }];
  let arguments = (ins Variadic<Strata_Tensor>:$inputs, Variadic<Strata_Tensor>:$init_values,
                       DenseI64ArrayAttr:$dimensions);
  let results = (outs Variadic<Strata_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Strata_FusionOp : Strata_Op<"fusion", [RecursiveMemoryEffects, IsolatedFromAbove,
                                          SingleBlock]> {
  let summary = "a group of ops computed as one kernel";
  let description = [{
    Computes its body on `inputs` (bound to the body's arguments) and yields what the body
    returns; the fusion pass groups ops into it so they run as one loop nest.

    Example:
    ```mlir
    %1 = strata.fusion(%0, %b) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32> {
    ^bb0(%x: tensor<4x16xf32>, %y: tensor<4x16xf32>):
      %s = strata.add %x, %y : tensor<4x16xf32>
      strata.return %s : tensor<4x16xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<Strata_Tensor>:$inputs);
  let results = (outs Variadic<Strata_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` attr-dict `:` functional-type($inputs, results) $body
  }];
  let hasVerifier = 1;
}

def Strata_ReturnOp : Strata_Op<"return", [Pure, Terminator, ReturnLike,
                                          ParentOneOf<["ReduceOp", "FusionOp", "IfOp", "CaseOp", "WhileOp", "SortOp",
                                                       "ReduceWindowOp", "SelectAndScatterOp"]>]> {
  let summary = "the values a body yields";
  let description = [{
    Ends the body of a `strata.reduce`, `strata.fusion`, or a region of `strata.if`,
    `strata.case`, `strata.while` or `strata.sort`, yielding `results` to it.

    Example:
    ```mlir
    strata.return %s : tensor<f32>
    ```
  }];
  let arguments = (ins Variadic<Strata_Tensor>:$results);
  let assemblyFormat = "attr-dict ($results^ `:` type($results))?";
}

//===----------------------------------------------------------------------------------===//
// Control flow (StableHLO's if, case and while; the jaxpr's cond, while and scan lower to
// them). Regions read values of the enclosing region directly; each ends in strata.return.
//===----------------------------------------------------------------------------------===//

def Strata_IfOp : Strata_Op<"if", [RecursiveMemoryEffects]> {
  let summary = "one of two regions, chosen by a predicate";
  let description = [{
    Runs `true_branch` when the 0-d `pred` holds, else `false_branch`, and yields what that
    region returns (StableHLO's if, printed in its generic form).

    Example:
    ```mlir
    %r = "strata.if"(%p) ({
      strata.return %a : tensor<4xf32>
    }, {
      %n = strata.negate %a : tensor<4xf32>
      strata.return %n : tensor<4xf32>
    }) : (tensor<i1>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins 0DTensorOf<[I1]>:$pred);
  let results = (outs Variadic<Strata_Tensor>:$results);
  let regions = (region SizedRegion<1>:$true_branch, SizedRegion<1>:$false_branch);
  let hasVerifier = 1;
}

def Strata_CaseOp : Strata_Op<"case", [RecursiveMemoryEffects]> {
  let summary = "one of N regions, chosen by an index";
  let description = [{
    Runs `branches[index]` (an index out of range runs the last branch, as StableHLO's case)
    and yields what it returns.

    Example:
    ```mlir
    %r = "strata.case"(%i) ({
      strata.return %a : tensor<f32>
    }, {
      strata.return %b : tensor<f32>
    }, {
      strata.return %c : tensor<f32>
    }) : (tensor<i32>) -> tensor<f32>
    ```
  }];
  let arguments = (ins 0DTensorOf<[I32]>:$index);
  let results = (outs Variadic<Strata_Tensor>:$results);
  let regions = (region VariadicRegion<SizedRegion<1>>:$branches);
  let hasVerifier = 1;
}

def Strata_WhileOp : Strata_Op<"while", [RecursiveMemoryEffects]> {
  let summary = "a loop over a carry while a predicate holds";
  let description = [{
    Starts the carry at `operand`; while `cond` (given the carry, returning a 0-d i1) holds,
    replaces the carry with what `body` returns; yields the last carry (StableHLO's while).

    Example:
    ```mlir
    %r:2 = strata.while(%i = %zero, %x = %init) : tensor<i32>, tensor<4xf32>
      cond {
        %p = strata.compare LT, %i, %ten : (tensor<i32>, tensor<i32>) -> tensor<i1>
        strata.return %p : tensor<i1>
      } do {
        %j = strata.add %i, %one : tensor<i32>
        %y = strata.add %x, %x : tensor<4xf32>
        strata.return %j, %y : tensor<i32>, tensor<4xf32>
      }
    ```
  }];
  let arguments = (ins Variadic<Strata_Tensor>:$operand);
  let results = (outs Variadic<Strata_Tensor>:$results);
  let regions = (region SizedRegion<1>:$cond, SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Strata_DynamicSliceOp : Strata_Op<"dynamic_slice", [Pure]> {
  let summary = "a box of elements at run-time start indices";
  let description = [{
    Takes the `slice_sizes` box starting at the 0-d `start_indices` (one a dimension), each
    start clamped so that the box stays inside the operand (StableHLO's dynamic_slice).

    Example:
    ```mlir
    %s = strata.dynamic_slice %xs[%i, %zero], sizes = [1, 4]
        : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
    ```
    StableHLO's spelling `%xs, %i, %zero, sizes = [1, 4]` parses too.
  }];
  let arguments = (ins Strata_Tensor:$operand, Variadic<0DTensorOf<[Strata_Int]>>:$start_indices,
                       DenseI64ArrayAttr:$slice_sizes);
  let results = (outs Strata_Tensor:$result);
  let assemblyFormat = [{
    $operand `` custom<SliceStarts>($start_indices) `sizes` `=` $slice_sizes attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Strata_DynamicUpdateSliceOp : Strata_Op<"dynamic_update_slice", [Pure]> {
  let summary = "the operand with a box replaced at run-time start indices";
  let description = [{
    The operand with `update` written at the 0-d `start_indices`, each clamped so that the box
    stays inside (StableHLO's dynamic_update_slice).

    Example:
    ```mlir
    %r = strata.dynamic_update_slice %ys[%i, %zero], %y
        : (tensor<8x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
    ```
    StableHLO's spelling `%ys, %y, %i, %zero` parses too.
  }];
  let arguments = (ins Strata_Tensor:$operand, Strata_Tensor:$update,
                       Variadic<0DTensorOf<[Strata_Int]>>:$start_indices);
  let results = (outs Strata_Tensor:$result);
  let assemblyFormat = [{
    $operand `` custom<UpdateSliceOperands>($update, $start_indices) attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------------------===//
// Linear algebra.
//===----------------------------------------------------------------------------------===//

def Strata_DotGeneralOp : Strata_Op<"dot_general", [Pure, InferTypeOpAdaptor]> {
  let summary = "batched tensor contraction";
  let description = [{
    Sums products over the contracting dimensions, per batch; the result's dimensions are the
    batch dimensions, then `lhs`'s free ones, then `rhs`'s. Batching dimensions print only when
    there are some.

    Example:
    ```mlir
    %0 = strata.dot_general %a, %b, contracting_dims = [1] x [0]
        : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
    %1 = strata.dot_general %c, %d, batching_dims = [0] x [0], contracting_dims = [2] x [1]
        : (tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
    ```
  }];
  let arguments = (ins Strata_NumericTensor:$lhs, Strata_NumericTensor:$rhs,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$lhs_batching_dimensions,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$rhs_batching_dimensions,
                       DenseI64ArrayAttr:$lhs_contracting_dimensions,
                       DenseI64ArrayAttr:$rhs_contracting_dimensions);
  let results = (outs Strata_NumericTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` custom<DotDimensions>($lhs_batching_dimensions, $rhs_batching_dimensions,
                                             $lhs_contracting_dimensions,
                                             $rhs_contracting_dimensions)
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------------------===//
// Random numbers.
//===----------------------------------------------------------------------------------===//

def Strata_Threefry2x32Op : Strata_Op<"threefry2x32",
    [Pure, AllTypesMatch<["x0", "x1", "y0", "y1"]>]> {
  let summary = "the Threefry-2x32 block cipher";
  let description = [{
    Encrypts each counter pair (`x0`, `x1`) under the key (`key0`, `key1`) with 20 rounds of
    Threefry-2x32, as JAX's PRNG does; all values are 32-bit patterns held in `i32`.

    Example:
    ```mlir
    %y0, %y1 = strata.threefry2x32 %k0, %k1, %x0, %x1 : tensor<8xi32>
    ```
  }];
  let arguments = (ins Strata_I32Scalar:$key0, Strata_I32Scalar:$key1,
                       Strata_I32Tensor:$x0, Strata_I32Tensor:$x1);
  let results = (outs Strata_I32Tensor:$y0, Strata_I32Tensor:$y1);
  let assemblyFormat = "$key0 `,` $key1 `,` $x0 `,` $x1 attr-dict `:` type($x0)";
}

//===----------------------------------------------------------------------------------===//
// Indexing: gather and scatter (StableHLO's dimension numbers, as flat attributes).
//===----------------------------------------------------------------------------------===//

def Strata_GatherMode : I32EnumAttr<"GatherMode",
    "what `strata.gather` does with a box that would leave the operand (JAX's GatherScatterMode)", [
      I32EnumAttrCase<"CLIP", 0>, I32EnumAttrCase<"FILL", 1>]> {
  let cppNamespace = "::mlir::strata";
}

def Strata_GatherOp : Strata_Op<"gather", [Pure]> {
  let summary = "boxes of the operand at run-time start indices";
  let description = [{
    StableHLO's gather without batching dims: for each index vector of `start_indices` (along
    `index_vector_dim`; equal to its rank, each index is a scalar), the `slice_sizes` box of
    the operand starting there on the dims of `start_index_map`; the result holds the boxes
    with their `collapsed_slice_dims` dropped and their other dims at `offset_dims`. The mode
    says what happens to a box that would leave the operand: CLIP moves it inside (JAX's
    default), FILL reads zeros.

    Example:
    ```mlir
    %r = strata.gather CLIP, %table[%ids], offset_dims = [1], collapsed_slice_dims = [0],
        start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 128]
        : (tensor<1000x128xf32>, tensor<64x1xi32>) -> tensor<64x128xf32>
    ```
  }];
  let arguments = (ins Strata_GatherMode:$mode, Strata_Tensor:$operand, Strata_IntTensor:$start_indices,
                       DenseI64ArrayAttr:$offset_dims, DenseI64ArrayAttr:$collapsed_slice_dims,
                       DenseI64ArrayAttr:$start_index_map, I64Attr:$index_vector_dim,
                       DenseI64ArrayAttr:$slice_sizes);
  let results = (outs Strata_Tensor:$result);
  let assemblyFormat = [{
    $mode `,` $operand `[` $start_indices `]` `,` `offset_dims` `=` $offset_dims `,`
    `collapsed_slice_dims` `=` $collapsed_slice_dims `,` `start_index_map` `=` $start_index_map `,`
    `index_vector_dim` `=` $index_vector_dim `,` `slice_sizes` `=` $slice_sizes
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Strata_ScatterCombiner : I32EnumAttr<"ScatterCombiner",
    "how `strata.scatter` combines an update with the operand's element", [
      I32EnumAttrCase<"REPLACE", 0>, I32EnumAttrCase<"ADD", 1>, I32EnumAttrCase<"MUL", 2>,
      I32EnumAttrCase<"MIN", 3>, I32EnumAttrCase<"MAX", 4>]> {
  let cppNamespace = "::mlir::strata";
}

def Strata_ScatterOp : Strata_Op<"scatter", [Pure]> {
  let summary = "the operand with update windows combined in at run-time start indices";
  let description = [{
    StableHLO's scatter with its body given as a `combiner` attribute (REPLACE, ADD, MUL, MIN,
    MAX; MIN and MAX propagate nan) instead of a region: each update window (the update dims
    at `update_window_dims`; the operand dims `inserted_window_dims` have size 1 and no update
    dim) is combined into the operand at the start its index vector gives on the dims of
    `scatter_dims_to_operand_dims`. A window that would leave the operand is dropped (JAX's
    FILL_OR_DROP). Updates apply in row-major order of the index vectors.

    Example:
    ```mlir
    %r = strata.scatter ADD, %table[%ids], %rows, update_window_dims = [1],
        inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1
        : (tensor<1000x128xf32>, tensor<64x1xi32>, tensor<64x128xf32>) -> tensor<1000x128xf32>
    ```
  }];
  let arguments = (ins Strata_ScatterCombiner:$combiner, Strata_Tensor:$operand, Strata_IntTensor:$scatter_indices,
                       Strata_Tensor:$updates, DenseI64ArrayAttr:$update_window_dims,
                       DenseI64ArrayAttr:$inserted_window_dims, DenseI64ArrayAttr:$scatter_dims_to_operand_dims,
                       I64Attr:$index_vector_dim);
  let results = (outs Strata_Tensor:$result);
  let assemblyFormat = [{
    $combiner `,` $operand `[` $scatter_indices `]` `,` $updates `,` `update_window_dims` `=` $update_window_dims `,`
    `inserted_window_dims` `=` $inserted_window_dims `,`
    `scatter_dims_to_operand_dims` `=` $scatter_dims_to_operand_dims `,`
    `index_vector_dim` `=` $index_vector_dim attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------------------===//
// Convolution and pooling (issue 13).
//===----------------------------------------------------------------------------------===//

def Strata_ConvolutionOp : Strata_Op<"convolution", [Pure, InferTypeOpAdaptor]> {
  let summary = "convolution with strides, padding, dilations and groups";
  let description = [{
    StableHLO's convolution (jax.lax.conv_general_dilated): each output element is the sum,
    over a window of `lhs` (dilated by `lhs_dilation`, padded by `padding` = [[low, high], ...],
    which may be negative, stepped by `stride`), of its products with `rhs` (its taps
    `rhs_dilate` apart). `dim_numbers` names the dimensions as StableHLO prints them: `b`/`f`
    batch and feature of lhs and the result, `o`/`i` output and input feature of rhs, and the
    spatial dimensions by number. `feature_group_count` splits features, and
    `batch_group_count` the batch, into independent groups (at most one of them above 1).

    Example:
    ```mlir
    %0 = strata.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
        window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]}
        {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
        : (tensor<8x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<8x32x32x16xf32>
    ```
  }];
  let arguments = (ins Strata_NumericTensor:$lhs, Strata_NumericTensor:$rhs,
                       DenseI64ArrayAttr:$window_strides, DenseI64ArrayAttr:$padding,
                       DenseI64ArrayAttr:$lhs_dilation, DenseI64ArrayAttr:$rhs_dilation,
                       DenseI64ArrayAttr:$lhs_spec, DenseI64ArrayAttr:$rhs_spec,
                       DenseI64ArrayAttr:$out_spec, I64Attr:$feature_group_count,
                       I64Attr:$batch_group_count);
  let results = (outs Strata_NumericTensor:$result);
  let assemblyFormat = [{
    `(` $lhs `,` $rhs `)` `dim_numbers` `=` custom<ConvDimensions>($lhs_spec, $rhs_spec, $out_spec) `,`
    `window` `=` custom<ConvWindow>($window_strides, $padding, $lhs_dilation, $rhs_dilation, ref($lhs_spec))
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Strata_ReverseOp : Strata_Op<"reverse", [Pure, SameOperandsAndResultType]> {
  let summary = "reverse the order of elements along dimensions";
  let description = [{
    StableHLO's reverse (jax.lax.rev): element i along each of `dimensions` moves to size-1-i.

    Example:
    ```mlir
    %1 = strata.reverse %0, dims = [0, 1] : tensor<3x3x4x8xf32>
    ```
  }];
  let arguments = (ins Strata_Tensor:$operand, DenseI64ArrayAttr:$dimensions);
  let results = (outs Strata_Tensor:$result);
  let assemblyFormat = "$operand `,` `dims` `=` $dimensions attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------------------===//
// Sorting, cumulative ops and their relatives (issue 13, sortscan group).
//===----------------------------------------------------------------------------------===//

def Strata_ClampOp : Strata_ElementwiseOp<"clamp", [SameOperandsAndResultType]> {
  let jaxprPrimitive = "clamp";
  let scalar = [{
    Value lo = args[0], v = args[1], hi = args[2];
    if (isa<FloatType>(v.getType()))
      return scalar::floatMax(e, scalar::floatMax(e, v, lo, /*max=*/true), hi, /*max=*/false);
    if (v.getType().isInteger(1)) return e.andi(e.ori(v, lo), hi);
    if (uns) return arith::MinUIOp::create(b, loc, arith::MaxUIOp::create(b, loc, v, lo), hi);
    return arith::MinSIOp::create(b, loc, arith::MaxSIOp::create(b, loc, v, lo), hi);
  }];
  let summary = "elementwise clamp";
  let description = [{
    `min(max(operand, min), max)` elementwise (StableHLO's clamp, its operands in that order,
    all of one type: the jaxpr lowering broadcasts 0-d bounds first); nan if any is nan.

    Example:
    ```mlir
    %3 = strata.clamp %0, %1, %2 : tensor<4xf32>
    ```
  }];
  let arguments = (ins Strata_Tensor:$min, Strata_Tensor:$operand, Strata_Tensor:$max);
  let results = (outs Strata_Tensor:$result);
  let assemblyFormat = "$min `,` $operand `,` $max attr-dict `:` type($result)";
}

def Strata_CumulativeOp : Strata_Op<"cumulative", [Pure, SameOperandsAndResultType]> {
  let summary = "running sum, product, maximum, minimum or log-sum-exp along a dimension";
  let description = [{
    Element `i` of the result combines the operand's elements `0..i` along `dimension` (or
    `i..n-1` with `reverse`) with `kind`: `sum`, `prod`, `max`, `min` (nan from the first nan
    on) or `logsumexp` (floats only); jax.lax's cumsum, cumprod, cummax, cummin, cumlogsumexp.
    StableHLO has no such op (JAX emits a reduce_window or an associative scan); here the kind
    is an attribute and the op lowers to a loop along the dimension. bf16/f16 combine in f32
    and round at each step.

    Example:
    ```mlir
    %1 = strata.cumulative %0 kind = "sum", dim = 1 reverse : tensor<2x5xf32>
    ```
  }];
  let arguments = (ins Strata_NumericTensor:$operand, StrAttr:$kind, I64Attr:$dimension, UnitAttr:$reverse);
  let results = (outs Strata_NumericTensor:$result);
  let assemblyFormat = [{
    $operand `kind` `=` $kind `,` `dim` `=` $dimension (`reverse` $reverse^)? attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}


//===----------------------------------------------------------------------------------===//
// Sort (issue 13): StableHLO's sort, comparator region included.
//===----------------------------------------------------------------------------------===//

def Strata_SortOp : Strata_Op<"sort", [RecursiveMemoryEffects, SingleBlock, IsolatedFromAbove]> {
  let summary = "sort several tensors together along a dimension by a comparator";
  let description = [{
    Sorts the `inputs` (one shape) together along `dimension` (negative: from the end): each
    line along it is permuted so that the comparator, called on the elements of two positions
    (block arguments lhs0, rhs0, lhs1, rhs1, ...: 0-d tensors) and returning a 0-d i1, says
    whether lhs goes before rhs. `is_stable` keeps the input order of elements neither of
    which goes before the other. StableHLO's sort; jax.lax.sort lowers to it with a
    lexicographic comparator in total order. Its generic form is StableHLO's.

    Example:
    ```mlir
    %1:2 = strata.sort %0, %i {dimension = 0 : i64, is_stable = true}
        : (tensor<8xf32>, tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
      %lt = strata.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      strata.return %lt : tensor<i1>
    }
    ```
  }];
  let arguments = (ins Variadic<Strata_Tensor>:$inputs, DefaultValuedAttr<I64Attr, "-1">:$dimension,
                       DefaultValuedAttr<BoolAttr, "false">:$is_stable);
  let results = (outs Variadic<Strata_Tensor>:$results);
  let regions = (region SizedRegion<1>:$comparator);
  let assemblyFormat = [{
    $inputs attr-dict `:` functional-type($inputs, results) $comparator
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    // `dimension` counted from the front.
    int64_t getSortDimension() {
      int64_t d = getDimension();
      return d < 0 ? d + cast<RankedTensorType>(getInputs()[0].getType()).getRank() : d;
    }
  }];
}


//===----------------------------------------------------------------------------------===//
// Window reductions (issue 13): StableHLO's reduce_window and select_and_scatter, printed in
// StableHLO's (generic) form; absent optional attributes mean StableHLO's defaults.
//===----------------------------------------------------------------------------------===//

def Strata_ReduceWindowOp : Strata_Op<"reduce_window", [RecursiveMemoryEffects, AttrSizedOperandSegments,
                                                        SingleBlock, IsolatedFromAbove]> {
  let summary = "reduce each window of the inputs with a body";
  let description = [{
    StableHLO's reduce_window: each result element reduces one window of the N `inputs` (of one
    shape) by the body, starting from the N 0-d `init_values`. The inputs are dilated by
    `base_dilations` and padded by `padding` ([[low, high], ...], non-negative), both reading the
    init value; the window (`window_dimensions`, taps `window_dilations` apart) steps by
    `window_strides`. The body takes 2N 0-d tensors (accumulators, then elements) and returns N.
    Strides and dilations default to 1, padding to 0.

    Example:
    ```mlir
    %1 = "strata.reduce_window"(%0, %ninf) <{window_dimensions = array<i64: 1, 2, 2, 1>,
        window_strides = array<i64: 1, 2, 2, 1>, operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%acc: tensor<f32>, %x: tensor<f32>):
      %m = strata.maximum %acc, %x : tensor<f32>
      strata.return %m : tensor<f32>
    }) : (tensor<8x32x32x16xf32>, tensor<f32>) -> tensor<8x16x16x16xf32>
    ```
  }];
  let arguments = (ins Variadic<Strata_Tensor>:$inputs, Variadic<Strata_Tensor>:$init_values,
                       DenseI64ArrayAttr:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<DenseI64ArrayAttr>:$base_dilations,
                       OptionalAttr<DenseI64ArrayAttr>:$window_dilations,
                       OptionalAttr<I64ElementsAttr>:$padding);
  let results = (outs Variadic<Strata_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    // The window's geometry with StableHLO's defaults filled in.
    WindowGeometry getGeometry();
  }];
}

def Strata_SelectAndScatterOp : Strata_Op<"select_and_scatter", [RecursiveMemoryEffects, IsolatedFromAbove]> {
  let summary = "scatter each source element to the element its window selects";
  let description = [{
    StableHLO's select_and_scatter (JAX's select_and_scatter_add is it with `compare GE` and
    `add`): for each window of `operand` (`window_dimensions`, `window_strides`, `padding`; one
    window per element of `source`), the `select` region picks one element (a later element
    replaces the current one when select(current, element) is false; padding is never
    selected), and the `scatter` region combines the source element into the result there. The
    result starts as `init_value` everywhere. Window sizes and strides default to 1, padding to 0.

    Example:
    ```mlir
    %r = "strata.select_and_scatter"(%x, %g, %zero) <{window_dimensions = array<i64: 2, 2>,
        window_strides = array<i64: 2, 2>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = strata.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      strata.return %c : tensor<i1>
    }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = strata.add %a, %b : tensor<f32>
      strata.return %s : tensor<f32>
    }) : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x6xf32>
    ```
  }];
  let arguments = (ins Strata_Tensor:$operand, Strata_Tensor:$source, Strata_Tensor:$init_value,
                       OptionalAttr<DenseI64ArrayAttr>:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<I64ElementsAttr>:$padding);
  let results = (outs Strata_Tensor:$result);
  let regions = (region SizedRegion<1>:$select, SizedRegion<1>:$scatter);
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    // The window's geometry with StableHLO's defaults filled in (dilations 1).
    WindowGeometry getGeometry();
  }];
}


//===----------------------------------------------------------------------------------===//
// Linear algebra (issue 14): jax.lax.linalg's decompositions, computed by the runtime.
//===----------------------------------------------------------------------------------===//

def Strata_LinalgOp : Strata_Op<"linalg", [Pure]> {
  let summary = "a matrix decomposition or triangular solve, batched over leading dimensions";
  let description = [{
    One of jax.lax.linalg's primitives on batches of matrices [..., m, n] (f32, f64 or
    complex of them), named by `kind`, with its bool params packed into `flags`
    (tracer/linalg_rules.h): `cholesky` (a → lower L), `triangular_solve` (a, b → x;
    left_side 1, lower 2, transpose_a 4, unit_diagonal 8, conjugate_a 16), `lu` (a → lu,
    pivots i32, permutation i32), `qr` (a → q, r; full_matrices 1), `eigh` (a → v, w ascending
    and real), `svd` (a → s descending and real, and u, vt with compute_uv 2; full_matrices 1),
    `eig` (a → w, then vl with compute_left_eigenvectors 1 and vr with
    compute_right_eigenvectors 2, all complex), `schur` (a → t, then z with
    compute_schur_vectors 1), `hessenberg` (a → h, q). StableHLO has cholesky and triangular_solve and
    JAX emits LAPACK custom calls for the others; here one op calls the CPU runtime
    (strata_rt_linalg), which runs the eager kernels' code (tracer/kernels/linalg.h).

    Example:
    ```mlir
    %l = strata.linalg "cholesky" (%a) flags = 0 : (tensor<4x3x3xf32>) -> tensor<4x3x3xf32>
    %x = strata.linalg "triangular_solve" (%l, %b) flags = 3
        : (tensor<4x3x3xf32>, tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
    ```
  }];
  let arguments = (ins Variadic<Strata_Tensor>:$operands, StrAttr:$kind, I64Attr:$flags);
  let results = (outs Variadic<Strata_Tensor>:$results);
  let assemblyFormat = [{
    $kind `(` $operands `)` `flags` `=` $flags attr-dict `:` functional-type($operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------------------===//
// The discrete Fourier transform: jax.lax.fft, computed by the runtime.
//===----------------------------------------------------------------------------------===//

def Strata_FftType : I32EnumAttr<"FftType", "the transform of `strata.fft` (StableHLO's fft_type; JAX's numbers)", [
      I32EnumAttrCase<"FFT", 0>, I32EnumAttrCase<"IFFT", 1>, I32EnumAttrCase<"RFFT", 2>, I32EnumAttrCase<"IRFFT", 3>]> {
  let cppNamespace = "::mlir::strata";
}

def Strata_FftOp : Strata_Op<"fft", [Pure]> {
  let summary = "a discrete Fourier transform over the last 1 to 3 dimensions";
  let description = [{
    StableHLO's fft (jax.lax.fft) over the operand's last `fft_length`.size() dimensions: FFT
    and IFFT map complex to complex, RFFT real to complex (the last dimension n becoming
    n/2+1, the non-negative frequencies), IRFFT back (its last operand dimension n/2+1, the
    imaginary parts of the zero and n/2 frequencies not read). The inverses are scaled by
    1/N. f32/f64 and complex of them. The CPU runtime computes it (strata_rt_fft), with the
    eager kernel's code (tracer/kernels/fft.h).

    Example:
    ```mlir
    %1 = strata.fft %0, type = RFFT, length = [4, 6] : (tensor<3x4x6xf32>) -> tensor<3x4x4xcomplex<f32>>
    ```
  }];
  let arguments = (ins Strata_Tensor:$operand, Strata_FftType:$fft_type, DenseI64ArrayAttr:$fft_length);
  let results = (outs Strata_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `type` `=` $fft_type `,` `length` `=` $fft_length attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------------------===//
// Collectives (issue 18): communication over a process group, run by the runtime.
//===----------------------------------------------------------------------------------===//

def Strata_CollectiveOp : Strata_Op<"collective", [Pure]> {
  let summary = "a collective over a process group (psum, all_gather, ppermute, ...)";
  let description = [{
    One of JAX's collective primitives, named by `kind`, in the leading-dimension forms of
    tracer/collective_rules.h: `psum`, `pmax`, `pmin` (x -> x), `all_gather` (x -> [n, x]),
    `psum_scatter` ([n, s] -> [s]), `all_to_all` ([n, s] -> [n, s]), `ppermute` (x -> x, with
    (source, destination) pairs in `perm`) and `axis_index` (no operand -> i32). The group is
    the processes of a mesh of shape `mesh` (over the world's ranks, row-major) that differ
    along `mesh_dims`; `axis_size` is its size n. StableHLO spells these all_reduce,
    all_gather, reduce_scatter, all_to_all, collective_permute and partition_id over replica
    groups; here the CPU runtime (strata_rt_collective) runs them on the process's transport
    (MPI), the code the eager kernels run.

    Example:
    ```mlir
    %s = strata.collective "psum" (%x) {axis_size = 2 : i64, mesh = array<i64: 2>, mesh_dims = array<i64: 0>,
                                         perm = array<i64>} : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Variadic<Strata_Tensor>:$operands, StrAttr:$kind, I64Attr:$axis_size,
                       DenseI64ArrayAttr:$mesh, DenseI64ArrayAttr:$mesh_dims, DenseI64ArrayAttr:$perm);
  let results = (outs Strata_Tensor:$result);
  let assemblyFormat = [{
    $kind `(` $operands `)` attr-dict `:` functional-type($operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------------------===//
// Host callbacks: a C++ function of the process called by the runtime.
//===----------------------------------------------------------------------------------===//

def Strata_HostCallbackOp : Strata_Op<"host_callback", [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "a call of a host function (pure_callback, io_callback, debug_callback)";
  let description = [{
    Calls the host function registered under `callback` (tracer/host_callback.h) with the
    operands' values and gives what it returns, as StableHLO's custom_call of a Python callback
    in JAX. `name` is for reading. The CPU runtime (strata_rt_host_callback) runs it on the
    calling thread; the id lives only in the process that traced the program. With
    `has_side_effect` (io_callback, debug_callback) the op writes memory, as far as passes know:
    it is never removed, merged or moved past another such op; without it the op is pure
    (pure_callback: removed when unused, merged with an identical call).

    Example:
    ```mlir
    %r = strata.host_callback "pure_callback" (%x) callback = 3 : (tensor<4xf32>) -> tensor<4xf32>
    strata.host_callback "debug.print" (%x, %y) callback = 4 {has_side_effect} : (tensor<4xf32>, tensor<i32>) -> ()
    ```
  }];
  let arguments = (ins Variadic<Strata_Tensor>:$operands, I64Attr:$callback, StrAttr:$name, UnitAttr:$has_side_effect);
  let results = (outs Variadic<Strata_Tensor>:$results);
  let assemblyFormat = [{
    $name `(` $operands `)` `callback` `=` $callback attr-dict `:` functional-type($operands, results)
  }];
}

//===----------------------------------------------------------------------------------===//
// StableHLO ops JAX programs use (issue 15): reduce_precision, rng_bit_generator.
//===----------------------------------------------------------------------------------===//

def Strata_ReducePrecisionOp : Strata_ElementwiseOp<"reduce_precision", [SameOperandsAndResultType]> {
  let movesStoredBits = 1;  // rounds the stored bits: bf16 and f16 in their own precision
  let scalar = [{
    return scalar::reducePrecision(e, x, getExponentBits(), getMantissaBits());
  }];
  let summary = "elementwise rounding to a float format with fewer exponent and mantissa bits";
  let description = [{
    StableHLO's reduce_precision (jax.lax.reduce_precision): each element rounded to the
    nearest value (ties to even) of a float format with `exponent_bits` exponent and
    `mantissa_bits` mantissa bits, kept in the operand's type; values beyond its range become
    infinities of their sign, values below its smallest normal zeros of their sign (no
    subnormals), nans unchanged (even with no mantissa bits, as XLA on CPU gives). XLA's
    algorithm, on the stored bits.

    Example:
    ```mlir
    %1 = strata.reduce_precision %0, format = e5m10 : tensor<4xf32>
    ```
  }];
  let arguments = (ins Strata_FloatTensor:$operand, ConfinedAttr<I32Attr, [IntMinValue<1>]>:$exponent_bits,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$mantissa_bits);
  let results = (outs Strata_FloatTensor:$result);
  let assemblyFormat = [{
    $operand `,` `format` `=` custom<PrecisionFormat>($exponent_bits, $mantissa_bits) attr-dict `:` type($result)
  }];
}

def Strata_OptimizationBarrierOp : Strata_Op<"optimization_barrier",
    [Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "the operands, unchanged, across which no computation moves";
  let description = [{
    Returns its operands as they are (StableHLO's optimization_barrier, which JAX emits for
    jax.lax.optimization_barrier and in the backward pass of jax.checkpoint). Its results are
    not known to equal its operands before the lowering to linalg, which forwards them: so
    CSE does not merge a recomputation behind it with the value computed before, and fusion
    does not merge computations on its two sides.

    Example:
    ```mlir
    %1:2 = strata.optimization_barrier %0, %x : tensor<3xf32>, tensor<2xi32>
    ```
  }];
  let arguments = (ins Variadic<Strata_Tensor>:$operand);
  let results = (outs Variadic<Strata_Tensor>:$result);
  let assemblyFormat = [{
    attr-dict ($operand^ `:` type($operand))?
  }];
}

def Strata_RngAlgorithm : I32EnumAttr<"RngAlgorithm",
    "the bit generator of `strata.rng_bit_generator` (StableHLO's rng_algorithm)", [
      I32EnumAttrCase<"DEFAULT", 0>, I32EnumAttrCase<"THREE_FRY", 1>, I32EnumAttrCase<"PHILOX", 2>]> {
  let cppNamespace = "::mlir::strata";
}

def Strata_RngBitGeneratorOp : Strata_Op<"rng_bit_generator", [Pure]> {
  let summary = "uniform random bits from a counter-based generator's state";
  let description = [{
    StableHLO's rng_bit_generator (jax.lax.rng_bit_generator): `output` filled with random
    bits and the state advanced, as XLA computes them (its RngBitGeneratorExpander and
    prng.cc), so the bits equal JAX's on CPU and GPU. Floats receive the bits of the unsigned
    type of their width.

    THREE_FRY: the state is (key, counter) as ui64[2]; the output's elements come from
    Threefry-2x32 of consecutive counters under the key (two 32-bit words per counter: 32-bit
    results take both halves along a split dimension, 64-bit ones join them, 8/16-bit ones
    truncate 32-bit ones), and the counter advances by the number of counters used.

    PHILOX, and DEFAULT (which XLA's CPU and GPU compilers take as PHILOX): the state is
    (key, counter) as ui64[2], the 128-bit counter's high word being the key, or
    (key, counter low, counter high) as ui64[3]; Philox-4x32-10 of consecutive counters gives
    four 32-bit words each, taken in order (64-bit results join pairs, 8/16-bit ones truncate),
    and the counter advances by the number of blocks (ui64[2] keeps its low word only).

    Example:
    ```mlir
    %state, %bits = strata.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x2xui32>)
    ```
  }];
  let arguments = (ins Strata_Tensor:$initial_state, Strata_RngAlgorithm:$rng_algorithm);
  let results = (outs Strata_Tensor:$output_state, Strata_Tensor:$output);
  let assemblyFormat = [{
    $initial_state `,` `algorithm` `=` $rng_algorithm attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif  // STRATA_OPS_TD
