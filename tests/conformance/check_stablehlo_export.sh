#!/usr/bin/env bash
# ctest's stablehlo.export: tools/check_stablehlo_export.py (strata-opt --emit=stablehlo read by
# StableHLO's own parser, and run by XLA against strata-run) with a Python that has JAX:
# $JAX_PYTHON, else /work/venv-jax/bin/python. Without one the test skips (exit 77): tests
# never install from PyPI.
#   check_stablehlo_export.sh BUILD_DIR PATH...
py="${JAX_PYTHON:-/work/venv-jax/bin/python}"
if [[ ! -x "$py" ]] || ! "$py" -c "import jax, jaxlib.mlir.ir, numpy" 2>/dev/null; then
  echo "SKIP: no Python with JAX and jaxlib's MLIR bindings at '$py' (set JAX_PYTHON to one)"
  exit 77
fi
exec "$py" "$(dirname "$0")/../../tools/check_stablehlo_export.py" "$@"
