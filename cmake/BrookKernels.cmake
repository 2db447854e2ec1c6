# brook_add_kernels(TARGET target SOURCES a.br [b.br ...] [OPTIONS opt ...])
#
# Runs `brook cc` on each .br file at build time (again whenever the file
# changes), giving brookgenfiles/NAME.h and brookgenfiles/NAME.cpp per file
# (the folder Brook+'s SDK had brcc write to) in a folder of the build tree;
# adds the .cpp to `target`, puts both that folder and its brookgenfiles on
# the target's include path (so the program writes #include "a.h", or
# #include "brookgenfiles/a.h" as the SDK's hosts do) and links it to
# Brook::brook. OPTIONS go to `brook cc` before the file (-I DIR, -D NAME).
# When one of the target's sources (those added before this call) includes
# brook/Stream.h or a brookgenfiles/ header, the host is a Brook+ program and
# the headers are Brook+'s bindings (`brook cc --brookplus`), as Brook+'s brcc
# wrote them; OPTIONS --brookplus asks for them outright. Installed with the
# package and included by BrookConfig.cmake; BROOK_EXECUTABLE names the
# `brook` to run.
function(brook_add_kernels)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "TARGET" "SOURCES;OPTIONS")
  if(NOT ARG_TARGET OR NOT ARG_SOURCES)
    message(FATAL_ERROR "brook_add_kernels needs TARGET and SOURCES")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "brook_add_kernels: unexpected arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  set(options ${ARG_OPTIONS})
  if(NOT "--brookplus" IN_LIST options)
    get_target_property(host_sources ${ARG_TARGET} SOURCES)
    get_target_property(host_dir ${ARG_TARGET} SOURCE_DIR)
    foreach(h IN LISTS host_sources)
      get_filename_component(habs "${h}" ABSOLUTE BASE_DIR "${host_dir}")
      if(EXISTS "${habs}" AND NOT IS_DIRECTORY "${habs}")
        file(STRINGS "${habs}" brookplus_includes
             REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](brook/Stream\\.h|brookgenfiles/)")
        if(brookplus_includes)
          list(APPEND options --brookplus)
          break()
        endif()
      endif()
    endforeach()
  endif()
  set(top "${CMAKE_CURRENT_BINARY_DIR}/brookgen/${ARG_TARGET}")
  set(dir "${top}/brookgenfiles")
  foreach(src IN LISTS ARG_SOURCES)
    get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(stem "${src}" NAME_WE)
    # Diagnostics and runtime errors name the file as the CMakeLists.txt does.
    file(RELATIVE_PATH shown "${CMAKE_CURRENT_SOURCE_DIR}" "${abs}")
    add_custom_command(
      OUTPUT "${dir}/${stem}.h" "${dir}/${stem}.cpp"
      COMMAND "${BROOK_EXECUTABLE}" cc ${options} -o "${dir}/${stem}" "${shown}"
      DEPENDS "${abs}" "${BROOK_EXECUTABLE}"
      WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
      COMMENT "brook cc ${shown}"
      VERBATIM)
    target_sources(${ARG_TARGET} PRIVATE "${dir}/${stem}.cpp" "${dir}/${stem}.h")
  endforeach()
  target_include_directories(${ARG_TARGET} PRIVATE "${top}" "${dir}")
  target_link_libraries(${ARG_TARGET} PRIVATE Brook::brook)
endfunction()
