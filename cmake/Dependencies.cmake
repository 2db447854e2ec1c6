# Every dependency comes from Debian (see tools/install-deps). The interpreter
# always builds; the JIT and OpenCL backends switch themselves off, loudly, when
# their packages are missing.
find_package(PkgConfig REQUIRED)
pkg_check_modules(READLINE IMPORTED_TARGET readline)
if(READLINE_FOUND)
  message(STATUS "brook: readline found, the REPL gets line editing and history")
else()
  message(STATUS "brook: readline NOT found (apt-get install libreadline-dev); the REPL reads plain lines")
endif()

# libpng: streamReadImage/streamWriteImage of PNG files (LANGUAGE.md §4).
find_package(PNG QUIET)
if(NOT PNG_FOUND)
  message(FATAL_ERROR "brook: libpng not found; run tools/install-deps (package libpng-dev)")
endif()

find_package(doctest QUIET)
if(NOT doctest_FOUND)
  message(FATAL_ERROR "brook: doctest not found; run tools/install-deps (package doctest-dev)")
endif()

if(BROOK_WITH_JIT)
  find_package(LLVM 19.1 QUIET CONFIG HINTS /usr/lib/llvm-19/lib/cmake/llvm)
  if(LLVM_FOUND)
    message(STATUS "brook: JIT backend ON (LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_DIR})")
  else()
    message(WARNING "brook: LLVM 19 not found (apt-get install llvm-19-dev); JIT backend OFF")
    set(BROOK_WITH_JIT OFF CACHE BOOL "" FORCE)
  endif()
endif()

if(BROOK_WITH_OPENCL)
  find_package(OpenCL QUIET)
  find_path(BROOK_CLHPP_INCLUDE CL/opencl.hpp)
  if(OpenCL_FOUND AND BROOK_CLHPP_INCLUDE)
    message(STATUS "brook: OpenCL backend ON (${OpenCL_LIBRARIES})")
  else()
    message(WARNING "brook: OpenCL ICD or CL/opencl.hpp not found (apt-get install ocl-icd-opencl-dev opencl-clhpp-headers pocl-opencl-icd); OpenCL backend OFF")
    set(BROOK_WITH_OPENCL OFF CACHE BOOL "" FORCE)
  endif()
endif()
