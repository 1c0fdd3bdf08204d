# TALLY_COMPILE_CHECK: a build whose kernels are compiled to be checked, never run (CI without a GPU,
# .ci/run): device code to PTX only (no ptxas for the build's architectures: CMakeLists.txt picks
# sm_90's virtual architecture) with cicc at -O0. test/portability still runs ptxas for sm_80 and
# sm_100. It takes a third off CI's build (docs/testing.md). Not for kernels that run.
option(TALLY_COMPILE_CHECK "Compile kernels only to check them (no GPU will run this build)" OFF)
# The nvcc flag of such a build (the install-tree consumer, test/CMakeLists.txt, passes it on).
set(TALLY_COMPILE_CHECK_CUDA_FLAGS "")
if(TALLY_COMPILE_CHECK)
  set(TALLY_COMPILE_CHECK_CUDA_FLAGS -Xcicc=-O0)
  add_compile_options("$<$<COMPILE_LANGUAGE:CUDA>:${TALLY_COMPILE_CHECK_CUDA_FLAGS}>")
endif()

# In a directory whose programs a TALLY_COMPILE_CHECK build never runs (the GPU tests, the
# benchmarks): its CUDA files' host code at -O0 too, in place of the build type's level.
macro(tally_compile_check_host_o0)
  if(TALLY_COMPILE_CHECK)
    foreach(config RELEASE RELWITHDEBINFO MINSIZEREL)
      string(REGEX REPLACE "-O[0-9s]" "-O0" CMAKE_CUDA_FLAGS_${config} "${CMAKE_CUDA_FLAGS_${config}}")
    endforeach()
  endif()
endmacro()
