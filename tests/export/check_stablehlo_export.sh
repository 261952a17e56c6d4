#!/usr/bin/env bash
# ctest's stablehlo.export: tools/check_stablehlo_export.py (strata-opt --emit=stablehlo read by
# StableHLO's own parser, and run by XLA against strata-run) with a Python that has JAX:
# $JAX_PYTHON, else /work/venv-jax/bin/python. Without one the test skips (exit 77): tests
# never install from PyPI.
#   check_stablehlo_export.sh BUILD_DIR PRIMITIVE_PROGRAMS PATH...
# PRIMITIVE_PROGRAMS (strata-primitive-programs) first writes one program per primitive case
# into BUILD_DIR/tests/export-primitives, checked with the PATHs.
py="${JAX_PYTHON:-/work/venv-jax/bin/python}"
if [[ ! -x "$py" ]] || ! "$py" -c "import jax, jaxlib.mlir.ir, numpy" 2>/dev/null; then
  echo "SKIP: no Python with JAX and jaxlib's MLIR bindings at '$py' (set JAX_PYTHON to one)"
  exit 77
fi
build="$1" primitives="$2"
shift 2
rm -rf "$build/tests/export-primitives"
"$primitives" "$build/tests/export-primitives" || exit 1
exec "$py" "$(dirname "$0")/../../tools/check_stablehlo_export.py" "$build" "$@" "$build/tests/export-primitives"
