# tally_find_nccl(<include_var> <library_var> [HINTS <prefix>...]): the directory of nccl.h and the
# path of libnccl, both from one prefix, the first that holds both: a header of one NCCL with the
# library of another would compile and then fail at run time. The prefixes, in this order:
# TALLY_NCCL_ROOT (variable, else environment), the HINTS, the system's own paths, then the
# nvidia-nccl-cu13 wheel (its package directory nvidia/nccl/, found through python3). Both variables
# are set to <var>-NOTFOUND where no prefix holds both. Used by tally's build (tally_nccl.cmake) and
# by the installed package (tallyConfig.cmake), so that both find the same NCCL the same way.
function(tally_find_nccl include_var library_var)
  cmake_parse_arguments(arg "" "" "HINTS" ${ARGN})
  set(root "${TALLY_NCCL_ROOT}")
  if(NOT root)
    set(root "$ENV{TALLY_NCCL_ROOT}")
  endif()
  set(prefixes ${root} ${arg_HINTS} SYSTEM)
  execute_process(COMMAND python3 -c "import nvidia.nccl; print(list(nvidia.nccl.__path__)[0])"
                  OUTPUT_VARIABLE wheel OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(wheel)
    list(APPEND prefixes "${wheel}")
  endif()
  foreach(prefix IN LISTS prefixes)
    if(prefix STREQUAL "SYSTEM")
      find_path(inc nccl.h NO_CACHE)
      find_library(lib NAMES nccl libnccl.so.2 NO_CACHE)
    else()
      find_path(inc nccl.h PATHS "${prefix}" PATH_SUFFIXES include NO_DEFAULT_PATH NO_CACHE)
      find_library(lib NAMES nccl libnccl.so.2 PATHS "${prefix}" PATH_SUFFIXES lib lib64 lib/x86_64-linux-gnu
                   NO_DEFAULT_PATH NO_CACHE)
    endif()
    if(inc AND lib)
      set(${include_var} "${inc}" PARENT_SCOPE)
      set(${library_var} "${lib}" PARENT_SCOPE)
      return()
    endif()
    unset(inc)
    unset(lib)
  endforeach()
  set(${include_var} "${include_var}-NOTFOUND" PARENT_SCOPE)
  set(${library_var} "${library_var}-NOTFOUND" PARENT_SCOPE)
endfunction()
