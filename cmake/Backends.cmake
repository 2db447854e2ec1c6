# brook_add_backend(<library> [PACKAGE_LINKS <target>...] [PACKAGE_FIND <line>...])
#
# Called once from an optional backend's own CMakeLists.txt. It links the
# library into the backend registry (backends/registry.cpp, whose row the
# library's PUBLIC BROOK_HAVE_<NAME> definition turns on) and records what the
# installed package needs: the library's objects in libbrook.a, the imported
# targets an embedder must link (PACKAGE_LINKS) and the find_dependency()
# lines BrookConfig.cmake runs for them (PACKAGE_FIND).
function(brook_add_backend library)
  cmake_parse_arguments(ARG "" "" "PACKAGE_LINKS;PACKAGE_FIND" ${ARGN})
  target_link_libraries(brook_backend_registry PUBLIC ${library})
  set_property(GLOBAL APPEND PROPERTY BROOK_BACKEND_LIBRARIES ${library})
  set_property(GLOBAL APPEND PROPERTY BROOK_BACKEND_PACKAGE_LINKS ${ARG_PACKAGE_LINKS})
  foreach(line IN LISTS ARG_PACKAGE_FIND)
    set_property(GLOBAL APPEND_STRING PROPERTY BROOK_BACKEND_PACKAGE_FIND "${line}\n")
  endforeach()
endfunction()
