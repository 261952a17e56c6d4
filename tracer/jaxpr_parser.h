// tracer/jaxpr_parser.h — reads a jaxpr back from the text JaxprImpl::str() prints.
//
// The grammar is the printer's (tracer/jaxpr.cpp, tracer/params.cpp):
//   { lambda CONSTVARS ; INVARS . let EQUATION* in ( ATOMS ) }
// with one equation per line: `OUT:TYPE ... = PRIMITIVE[PARAMS] ATOM ...`. Each equation is
// checked with its primitive's shape rule, so a parsed jaxpr is as valid as a traced one.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "jaxpr.h"

namespace strata {

struct JaxprParseError {
  int line = 0;    // 1-based
  int column = 0;  // 1-based
  std::string message;
};

struct ParsedJaxpr {
  // Constvars stay constvars but have no values (`consts` is empty): the text holds none.
  // Lowering makes them leading arguments either way.
  std::shared_ptr<JaxprImpl> jaxpr;  // null on error
  JaxprParseError error;
};

// Parses `text`; equations' SourceLocs point into it as `filename`:line:col (the name is
// interned for the life of the process, as std::source_location's are). Never throws.
ParsedJaxpr parse_jaxpr(std::string_view text, std::string_view filename = "<jaxpr>");

}  // namespace strata
