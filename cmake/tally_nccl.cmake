# tally::nccl - reductions over NCCL communicators (<tally/nccl.cuh>): tally::policies plus NCCL.
# NCCL is looked for under TALLY_NCCL_ROOT (a prefix holding include/nccl.h and lib/libnccl.so),
# then the CUDA toolkit, then the system, then the nvidia-nccl-cu13 wheel (found through python3).
# Where it is not found the tally::nccl target and its test, example and benchmark are left out.
set(TALLY_NCCL_ROOT "$ENV{TALLY_NCCL_ROOT}" CACHE PATH "Prefix of an NCCL installation (include/nccl.h, lib/libnccl.so)")

set(tally_nccl_hints "")
if(TALLY_NCCL_ROOT)
  list(APPEND tally_nccl_hints "${TALLY_NCCL_ROOT}")
endif()
list(APPEND tally_nccl_hints "${CUDAToolkit_LIBRARY_ROOT}")
# The wheel's package directory, nvidia/nccl/, holds include/nccl.h and lib/libnccl.so.2.
execute_process(COMMAND python3 -c "import nvidia.nccl; print(list(nvidia.nccl.__path__)[0])"
                OUTPUT_VARIABLE tally_nccl_wheel OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(tally_nccl_wheel)
  list(APPEND tally_nccl_hints "${tally_nccl_wheel}")
endif()

# nccl.h and libnccl come from the same prefix, the first that holds both: a header of one NCCL
# with the library of another would compile and then fail at run time. The system's own paths come
# after TALLY_NCCL_ROOT and the toolkit, the wheel last.
if(NOT TALLY_NCCL_INCLUDE_DIR OR NOT TALLY_NCCL_LIBRARY)
  set(tally_nccl_prefixes ${tally_nccl_hints})
  list(REMOVE_ITEM tally_nccl_prefixes "${tally_nccl_wheel}")
  list(APPEND tally_nccl_prefixes "SYSTEM")
  if(tally_nccl_wheel)
    list(APPEND tally_nccl_prefixes "${tally_nccl_wheel}")
  endif()
  foreach(prefix IN LISTS tally_nccl_prefixes)
    if(prefix STREQUAL "SYSTEM")
      find_path(tally_nccl_inc nccl.h NO_CACHE)
      find_library(tally_nccl_lib NAMES nccl libnccl.so.2 NO_CACHE)
    else()
      find_path(tally_nccl_inc nccl.h PATHS "${prefix}" PATH_SUFFIXES include NO_DEFAULT_PATH NO_CACHE)
      find_library(tally_nccl_lib NAMES nccl libnccl.so.2 PATHS "${prefix}" PATH_SUFFIXES lib lib64 lib/x86_64-linux-gnu
                   NO_DEFAULT_PATH NO_CACHE)
    endif()
    if(tally_nccl_inc AND tally_nccl_lib)
      set(TALLY_NCCL_INCLUDE_DIR "${tally_nccl_inc}" CACHE PATH "Directory of nccl.h" FORCE)
      set(TALLY_NCCL_LIBRARY "${tally_nccl_lib}" CACHE FILEPATH "libnccl" FORCE)
      break()
    endif()
    unset(tally_nccl_inc)
    unset(tally_nccl_lib)
  endforeach()
endif()

if(TALLY_NCCL_INCLUDE_DIR AND TALLY_NCCL_LIBRARY)
  file(STRINGS "${TALLY_NCCL_INCLUDE_DIR}/nccl.h" tally_nccl_version_lines REGEX "^#define NCCL_(MAJOR|MINOR|PATCH) ")
  string(REGEX REPLACE ".*NCCL_MAJOR ([0-9]+).*NCCL_MINOR ([0-9]+).*NCCL_PATCH ([0-9]+).*" "\\1.\\2.\\3"
         tally_nccl_version "${tally_nccl_version_lines}")
  message(STATUS "tally::nccl: NCCL ${tally_nccl_version}: ${TALLY_NCCL_LIBRARY} (${TALLY_NCCL_INCLUDE_DIR}/nccl.h)")
  add_library(tally_nccl INTERFACE)
  add_library(tally::nccl ALIAS tally_nccl)
  target_include_directories(tally_nccl SYSTEM INTERFACE "${TALLY_NCCL_INCLUDE_DIR}")
  target_link_libraries(tally_nccl INTERFACE tally_policies "${TALLY_NCCL_LIBRARY}")
  set(TALLY_HAVE_NCCL ON)
else()
  message(STATUS "tally::nccl: NCCL not found (nccl.h: ${TALLY_NCCL_INCLUDE_DIR}, libnccl: ${TALLY_NCCL_LIBRARY}); "
                 "the tally::nccl target, its test, example and benchmark are skipped. "
                 "-DTALLY_NCCL_ROOT=<prefix> or pip install nvidia-nccl-cu13 provide it.")
  set(TALLY_HAVE_NCCL OFF)
endif()
