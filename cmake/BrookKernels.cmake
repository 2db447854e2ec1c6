# brook_add_kernels(TARGET target SOURCES a.br [b.br ...] [OPTIONS opt ...])
#
# Runs `brook cc` on each .br file at build time (again whenever the file
# changes), giving NAME.h and NAME.cpp per file as brcc did; adds the .cpp to
# `target`, puts the folder of the headers on its include path (so the
# program writes #include "a.h") and links it to Brook::brook. OPTIONS go to
# `brook cc` before the file (-I DIR, -D NAME). Installed with the package and
# included by BrookConfig.cmake; BROOK_EXECUTABLE names the `brook` to run.
function(brook_add_kernels)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "TARGET" "SOURCES;OPTIONS")
  if(NOT ARG_TARGET OR NOT ARG_SOURCES)
    message(FATAL_ERROR "brook_add_kernels needs TARGET and SOURCES")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "brook_add_kernels: unexpected arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/brookgen/${ARG_TARGET}")
  foreach(src IN LISTS ARG_SOURCES)
    get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(stem "${src}" NAME_WE)
    # Diagnostics and runtime errors name the file as the CMakeLists.txt does.
    file(RELATIVE_PATH shown "${CMAKE_CURRENT_SOURCE_DIR}" "${abs}")
    add_custom_command(
      OUTPUT "${dir}/${stem}.h" "${dir}/${stem}.cpp"
      COMMAND "${BROOK_EXECUTABLE}" cc ${ARG_OPTIONS} -o "${dir}/${stem}" "${shown}"
      DEPENDS "${abs}" "${BROOK_EXECUTABLE}"
      WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
      COMMENT "brook cc ${shown}"
      VERBATIM)
    target_sources(${ARG_TARGET} PRIVATE "${dir}/${stem}.cpp" "${dir}/${stem}.h")
  endforeach()
  target_include_directories(${ARG_TARGET} PRIVATE "${dir}")
  target_link_libraries(${ARG_TARGET} PRIVATE Brook::brook)
endfunction()
