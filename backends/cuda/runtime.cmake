# The CUDA runtime layer (plain C++, no MLIR): the driver API and cuBLASLt loaded with dlopen
# (never linked, so strata runs on machines without a GPU), and the caching device allocator.
# Included from backends/CMakeLists.txt when the CUDA toolkit's headers are there; the headers
# give types only.
target_sources(strata_backends PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/Driver.cpp
  ${CMAKE_CURRENT_LIST_DIR}/Allocator.cpp
  ${CMAKE_CURRENT_LIST_DIR}/CublasLt.cpp)
target_include_directories(strata_backends SYSTEM PRIVATE /usr/local/cuda/include)
target_link_libraries(strata_backends PRIVATE ${CMAKE_DL_LIBS})
