# Sourced by .ci/run, test/run.sh and bench/run_main.sh: installs the Debian packages tally needs
# where they are missing (doctest, Google Benchmark, CMake, Python 3), and puts nvcc on the PATH.
# The CUDA toolkit itself (nvcc 12.4+ with CCCL) must already be installed.
tally_install_deps() {
  [ -d /usr/local/cuda/bin ] && export PATH="/usr/local/cuda/bin:$PATH"
  if ! command -v nvcc >/dev/null 2>&1; then
    echo "tally: nvcc not found: install the CUDA toolkit (12.4 or newer) first" >&2
    return 1
  fi
  local missing=()
  command -v cmake >/dev/null 2>&1 || missing+=(cmake)
  command -v python3 >/dev/null 2>&1 || missing+=(python3)  # docs/snippets.py extracts the Markdown's code
  [ -f /usr/include/doctest/doctest.h ] || [ -n "${DOCTEST_INCLUDE_DIR:-}" ] || missing+=(doctest-dev)
  [ -f /usr/include/benchmark/benchmark.h ] || [ -n "${benchmark_DIR:-}" ] || missing+=(libbenchmark-dev)
  if [ ${#missing[@]} -gt 0 ]; then
    if ! command -v apt-get >/dev/null 2>&1; then
      echo "tally: missing ${missing[*]} and no apt-get to install them" >&2
      return 1
    fi
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "tally: installing ${missing[*]}"
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}
