# tally::nccl - reductions over NCCL communicators (<tally/nccl.cuh>): tally::policies plus NCCL.
# NCCL is looked for under TALLY_NCCL_ROOT (a prefix holding include/nccl.h and lib/libnccl.so),
# then the CUDA toolkit, then the system, then the nvidia-nccl-cu13 wheel (tally_find_nccl.cmake;
# the installed package looks the same way). Where it is not found the tally::nccl target and its
# test, example and benchmark are left out.
set(TALLY_NCCL_ROOT "$ENV{TALLY_NCCL_ROOT}" CACHE PATH "Prefix of an NCCL installation (include/nccl.h, lib/libnccl.so)")

include("${CMAKE_CURRENT_LIST_DIR}/tally_find_nccl.cmake")
if(NOT TALLY_NCCL_INCLUDE_DIR OR NOT TALLY_NCCL_LIBRARY)
  tally_find_nccl(tally_nccl_inc tally_nccl_lib HINTS "${CUDAToolkit_LIBRARY_ROOT}")
  if(tally_nccl_inc AND tally_nccl_lib)
    set(TALLY_NCCL_INCLUDE_DIR "${tally_nccl_inc}" CACHE PATH "Directory of nccl.h" FORCE)
    set(TALLY_NCCL_LIBRARY "${tally_nccl_lib}" CACHE FILEPATH "libnccl" FORCE)
  endif()
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
