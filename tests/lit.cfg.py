# lit configuration of strata's FileCheck tests (tests/dialect, tests/strata-opt,
# tests/lowering). CMake writes lit.site.cfg.py into the build tree with the paths below, and
# ctest runs `lit <build>/tests`.
import os

import lit.formats

config.name = "strata"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.strata_obj_root, "tests", "lit-out")
# Inputs/ hold files that RUN lines read; api/, tracer/ and package/ are GoogleTest and ctest's.
config.excludes = ["Inputs", "api", "tracer", "package", "conformance", "lit.cfg.py", "lit.site.cfg.py"]

# strata-opt, the example lowerer, and LLVM's FileCheck, not and count.
config.environment["PATH"] = os.pathsep.join(
    [config.strata_tools_dir, config.strata_run_dir, config.strata_examples_dir, config.llvm_tools_dir,
     config.environment.get("PATH", os.environ.get("PATH", ""))])
