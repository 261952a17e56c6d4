#!/usr/bin/env bash
# Configures, builds and runs tests/package/app against a strata build tree, then against an
# install of it: proves find_package(strata) + strata::strata work for an outside project.
set -euo pipefail
build="$1"; app="$2"; cxx="$3"
work="$build/package-test"
rm -rf "$work"
cmake -S "$app" -B "$work/from-build" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" -Dstrata_DIR="$build" >/dev/null
cmake --build "$work/from-build" >/dev/null
"$work/from-build/package_app"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$app" -B "$work/from-install" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/from-install" >/dev/null
"$work/from-install/package_app"
