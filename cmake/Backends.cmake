# brook_add_backend(<library> NAME <name> [PLUGIN <definitions>...])
#
# Called once from an optional backend's own CMakeLists.txt. It links the
# library into the backend registry (backends/registry.cpp, whose row the
# library's PUBLIC BROOK_HAVE_<NAME> definition turns on) and into
# libbrook.so (the top CMakeLists.txt); NAME (the registry's, `--backend
# NAME`) joins BROOK_BACKEND_NAMES, the backends the tests run on.
#
# A PLUGIN backend (the JIT) is linked into neither: the top CMakeLists.txt
# builds it as a module the registry loads at first use, and the registry
# gets only the compile definitions given after PLUGIN. A program linking the
# static libraries that wants it links <library> itself (the unit tests).
function(brook_add_backend library)
  cmake_parse_arguments(ARG "" "NAME" "PLUGIN" ${ARGN})
  if(NOT ARG_NAME)
    message(FATAL_ERROR "brook_add_backend(${library}) needs NAME, the backend's name in backends/registry.cpp")
  endif()
  set_property(GLOBAL APPEND PROPERTY BROOK_BACKEND_NAMES ${ARG_NAME})
  if(ARG_PLUGIN)
    target_compile_definitions(brook_backend_registry PRIVATE ${ARG_PLUGIN})
    set_property(GLOBAL APPEND PROPERTY BROOK_PLUGIN_LIBRARIES ${library})
    return()
  endif()
  target_link_libraries(brook_backend_registry PUBLIC ${library})
  set_property(GLOBAL APPEND PROPERTY BROOK_BACKEND_LIBRARIES ${library})
endfunction()
