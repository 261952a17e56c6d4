// dialect/ConvolutionSyntax.h — StableHLO's assembly for strata.convolution (included by
// StrataOps.cpp before the generated op classes, which call these):
//   dim_numbers = [b, 0, 1, f]x[o, i, 0, 1]->[b, 0, 1, f]
//   window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]}
#pragma once

#include "mlir/IR/OpImplementation.h"

namespace mlir::strata::conv_syntax {

// One operand's layout: the letter of each dimension (`first`/`second` for the two
// non-spatial ones) or its spatial number, into spec = [first, second, spatial...].
inline ParseResult parseLayout(AsmParser& parser, char first, char second, SmallVectorImpl<int64_t>& spec) {
  SmallVector<int64_t> where;  // per dimension: -1 first, -2 second, or the spatial number
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
        int64_t n;
        OptionalParseResult r = parser.parseOptionalInteger(n);
        if (r.has_value()) {
          if (failed(*r)) return failure();
          where.push_back(n);
          return success();
        }
        StringRef word;
        if (parser.parseKeyword(&word)) return failure();
        if (word.size() == 1 && word[0] == first) where.push_back(-1);
        else if (word.size() == 1 && word[0] == second) where.push_back(-2);
        else return parser.emitError(parser.getCurrentLocation(), "expected '") << first << "', '" << second << "' or a spatial dimension number";
        return success();
      }))
    return failure();
  int64_t rank = static_cast<int64_t>(where.size());
  spec.assign(static_cast<size_t>(std::max<int64_t>(rank, 2)), -1);
  if (rank < 2) return parser.emitError(loc, "expected at least two dimensions");
  for (int64_t d = 0; d < rank; ++d) {
    int64_t w = where[static_cast<size_t>(d)];
    int64_t slot = w == -1 ? 0 : w == -2 ? 1 : w + 2;
    if (slot < 0 || slot >= rank || spec[static_cast<size_t>(slot)] != -1)
      return parser.emitError(loc, "expected each of '") << first << "', '" << second
                                                         << "' and the spatial numbers 0.." << rank - 3 << " once";
    spec[static_cast<size_t>(slot)] = d;
  }
  return success();
}

inline void printLayout(OpAsmPrinter& p, char first, char second, ArrayRef<int64_t> spec) {
  SmallVector<std::string> names(spec.size());
  for (size_t i = 0; i < spec.size(); ++i) {
    if (spec[i] < 0 || static_cast<size_t>(spec[i]) >= spec.size()) return void(p << "<invalid>");
    names[static_cast<size_t>(spec[i])] = i == 0 ? std::string(1, first) : i == 1 ? std::string(1, second) : std::to_string(i - 2);
  }
  p << "[";
  llvm::interleaveComma(names, p);
  p << "]";
}

inline ParseResult parseIntPairs(OpAsmParser& parser, SmallVectorImpl<int64_t>& out) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
    return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                          [&]() -> ParseResult { return parser.parseInteger(out.emplace_back()); });
  });
}

inline ParseResult parseInts(OpAsmParser& parser, SmallVectorImpl<int64_t>& out) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                        [&]() -> ParseResult { return parser.parseInteger(out.emplace_back()); });
}

}  // namespace mlir::strata::conv_syntax

static mlir::ParseResult parseConvDimensions(mlir::OpAsmParser& parser, mlir::DenseI64ArrayAttr& lhs,
                                             mlir::DenseI64ArrayAttr& rhs, mlir::DenseI64ArrayAttr& out) {
  using namespace mlir::strata::conv_syntax;
  llvm::SmallVector<int64_t> l, r, o;
  if (parseLayout(parser, 'b', 'f', l) || parser.parseKeyword("x") || parseLayout(parser, 'o', 'i', r) ||
      parser.parseArrow() || parseLayout(parser, 'b', 'f', o))
    return mlir::failure();
  mlir::Builder& b = parser.getBuilder();
  lhs = b.getDenseI64ArrayAttr(l);
  rhs = b.getDenseI64ArrayAttr(r);
  out = b.getDenseI64ArrayAttr(o);
  return mlir::success();
}

static void printConvDimensions(mlir::OpAsmPrinter& p, mlir::Operation*, mlir::DenseI64ArrayAttr lhs,
                                mlir::DenseI64ArrayAttr rhs, mlir::DenseI64ArrayAttr out) {
  using namespace mlir::strata::conv_syntax;
  printLayout(p, 'b', 'f', lhs.asArrayRef());
  p << "x";
  printLayout(p, 'o', 'i', rhs.asArrayRef());
  p << "->";
  printLayout(p, 'b', 'f', out.asArrayRef());
}

// {stride = [..], pad = [[lo, hi], ..], lhs_dilate = [..], rhs_dilate = [..], reverse = [..]}:
// StableHLO leaves out the fields at their defaults (strides and dilations 1, padding 0, no
// reversal), so each is optional; the spatial rank comes from the lhs layout parsed before.
static mlir::ParseResult parseConvWindow(mlir::OpAsmParser& parser, mlir::DenseI64ArrayAttr& strides,
                                         mlir::DenseI64ArrayAttr& padding, mlir::DenseI64ArrayAttr& lhsDilation,
                                         mlir::DenseI64ArrayAttr& rhsDilation, mlir::DenseI64ArrayAttr lhsSpec) {
  using namespace mlir::strata::conv_syntax;
  const size_t n = lhsSpec && lhsSpec.size() >= 2 ? static_cast<size_t>(lhsSpec.size()) - 2 : 0;
  llvm::SmallVector<int64_t> s(n, 1), pad(2 * n, 0), ld(n, 1), rd(n, 1);
  if (parser.parseLBrace()) return mlir::failure();
  if (failed(parser.parseOptionalRBrace())) {
    do {
      llvm::StringRef key;
      llvm::SMLoc at = parser.getCurrentLocation();
      if (parser.parseKeyword(&key) || parser.parseEqual()) return mlir::failure();
      mlir::ParseResult r = mlir::success();
      if (key == "stride") s.clear(), r = parseInts(parser, s);
      else if (key == "pad") pad.clear(), r = parseIntPairs(parser, pad);
      else if (key == "lhs_dilate") ld.clear(), r = parseInts(parser, ld);
      else if (key == "rhs_dilate") rd.clear(), r = parseInts(parser, rd);
      else if (key == "reverse") {
        bool reversed = false;
        r = parser.parseCommaSeparatedList(mlir::AsmParser::Delimiter::Square, [&]() -> mlir::ParseResult {
          llvm::StringRef v;
          if (parser.parseKeyword(&v)) return mlir::failure();
          reversed |= v == "true";
          return mlir::success(v == "true" || v == "false");
        });
        if (succeeded(r) && reversed) return parser.emitError(at, "strata's convolution does not reverse its window");
      } else {
        return parser.emitError(at, "expects a window field (stride, pad, lhs_dilate, rhs_dilate, reverse), but got ") << key;
      }
      if (failed(r)) return mlir::failure();
    } while (succeeded(parser.parseOptionalComma()));
    if (parser.parseRBrace()) return mlir::failure();
  }
  mlir::Builder& b = parser.getBuilder();
  strides = b.getDenseI64ArrayAttr(s);
  padding = b.getDenseI64ArrayAttr(pad);
  lhsDilation = b.getDenseI64ArrayAttr(ld);
  rhsDilation = b.getDenseI64ArrayAttr(rd);
  return mlir::success();
}

static void printConvWindow(mlir::OpAsmPrinter& p, mlir::Operation*, mlir::DenseI64ArrayAttr strides,
                            mlir::DenseI64ArrayAttr padding, mlir::DenseI64ArrayAttr lhsDilation,
                            mlir::DenseI64ArrayAttr rhsDilation, mlir::DenseI64ArrayAttr) {
  auto list = [&](mlir::DenseI64ArrayAttr a) {
    p << "[";
    llvm::interleaveComma(a.asArrayRef(), p);
    p << "]";
  };
  p << "{stride = ";
  list(strides);
  p << ", pad = [";
  llvm::ArrayRef<int64_t> pad = padding.asArrayRef();
  for (size_t i = 0; i + 1 < pad.size(); i += 2) p << (i ? ", " : "") << "[" << pad[i] << ", " << pad[i + 1] << "]";
  p << "], lhs_dilate = ";
  list(lhsDilation);
  p << ", rhs_dilate = ";
  list(rhsDilation);
  p << "}";
}
