# Our own code builds with -Wall -Wextra; dependencies are included as SYSTEM.
# -Werror only under BROOK_WERROR (CI sets it): a user's build must never fail
# because a newer compiler, or another optimisation level, found a new warning.
option(BROOK_WERROR "Treat compiler warnings in brook's own code as errors (CI)" OFF)
function(brook_target_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
  if(BROOK_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  # GCC 12 raises false -Wrestrict/-Wstringop-overflow reports inside inlined
  # std::string code at -O3 (GCC bugs 105329, 105651); they stay warnings.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-error=restrict -Wno-error=stringop-overflow)
  endif()
endfunction()
