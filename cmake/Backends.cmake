# brook_add_backend(<library> NAME <name> [PACKAGE_LINKS <target>...] [PACKAGE_FIND <line>...])
#
# Called once from an optional backend's own CMakeLists.txt. It links the
# library into the backend registry (backends/registry.cpp, whose row the
# library's PUBLIC BROOK_HAVE_<NAME> definition turns on) and records what the
# installed package needs: the library's objects in libbrook.a, the imported
# targets an embedder must link (PACKAGE_LINKS) and the find_dependency()
# lines BrookConfig.cmake runs for them (PACKAGE_FIND); NAME (the registry's,
# `--backend NAME`) joins BROOK_BACKEND_NAMES, the backends the tests run on.
function(brook_add_backend library)
  cmake_parse_arguments(ARG "" "NAME" "PACKAGE_LINKS;PACKAGE_FIND" ${ARGN})
  if(NOT ARG_NAME)
    message(FATAL_ERROR "brook_add_backend(${library}) needs NAME, the backend's name in backends/registry.cpp")
  endif()
  set_property(GLOBAL APPEND PROPERTY BROOK_BACKEND_NAMES ${ARG_NAME})
  target_link_libraries(brook_backend_registry PUBLIC ${library})
  set_property(GLOBAL APPEND PROPERTY BROOK_BACKEND_LIBRARIES ${library})
  set_property(GLOBAL APPEND PROPERTY BROOK_BACKEND_PACKAGE_LINKS ${ARG_PACKAGE_LINKS})
  foreach(line IN LISTS ARG_PACKAGE_FIND)
    set_property(GLOBAL APPEND_STRING PROPERTY BROOK_BACKEND_PACKAGE_FIND "${line}\n")
  endforeach()
endfunction()
