# Warning flags for tally's own targets (not exported to users).
add_library(tally_warnings INTERFACE)
target_compile_options(tally_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --Werror=cross-execution-space-call>)
