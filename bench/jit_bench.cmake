# The JIT benchmark runner (included from jit/CMakeLists.txt, so it exists
# exactly when the JIT does). Baselines build with -O3 -march=native.
add_library(brook_bench_baselines STATIC ${CMAKE_CURRENT_LIST_DIR}/baselines/baselines.cpp)
target_compile_options(brook_bench_baselines PRIVATE -O3 -march=native -ffp-contract=off)
brook_target_warnings(brook_bench_baselines)
add_executable(brook_jit_bench ${CMAKE_CURRENT_LIST_DIR}/jit_bench.cpp)
target_include_directories(brook_jit_bench PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(brook_jit_bench PRIVATE brook_jit brook_lang brook_bench_baselines Threads::Threads)
target_compile_definitions(brook_jit_bench PRIVATE BROOK_BENCH_DIR="${CMAKE_CURRENT_LIST_DIR}")
brook_target_warnings(brook_jit_bench)
