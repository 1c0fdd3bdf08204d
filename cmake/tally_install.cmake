# Install rules and the CMake package. `cmake --install` puts
#   include/tally/...            the headers of policies/ and lib/ (<tally/tally.hpp>, <tally/reduce.cuh>, ...)
#   lib/libtally.a, libtally.so  the precompiled algorithms (<tally/tally.hpp>, <tally/tally.h>)
#   lib/cmake/tally/             tallyConfig.cmake, its version file and the exported targets
# so that find_package(tally) gives tally::tally, tally::tally_shared and tally::policies, as
# add_subdirectory and FetchContent do, and find_package(tally COMPONENTS nccl) tally::nccl too
# (tally_find_nccl.cmake, installed beside the config, finds NCCL on the user's machine).
# tally_warnings stays private to this build (linked as $<BUILD_INTERFACE:...>).

# By default only a top-level build installs: a project that pulls tally in with add_subdirectory
# or FetchContent decides whether tally belongs in its own install tree.
option(TALLY_INSTALL "Generate tally's install rules" ${PROJECT_IS_TOP_LEVEL})
if(NOT TALLY_INSTALL)
  return()
endif()

include(CMakePackageConfigHelpers)
set(TALLY_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/tally" CACHE STRING
    "Where tally's CMake package files go, relative to the install prefix")

# policies/tally/ and lib/tally/ merge into one include/tally/ tree, as the include paths promise.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/policies/tally/" "${PROJECT_SOURCE_DIR}/lib/tally/"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/tally"
        FILES_MATCHING PATTERN "*.hpp" PATTERN "*.cuh" PATTERN "*.h")

install(TARGETS tally_policies tally tally_shared
        EXPORT tallyTargets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(EXPORT tallyTargets
        NAMESPACE tally::
        DESTINATION "${TALLY_INSTALL_CMAKEDIR}")

# The prefix of the NCCL this build found: the package's first hint after TALLY_NCCL_ROOT.
set(TALLY_NCCL_BUILD_PREFIX "")
if(TALLY_NCCL_INCLUDE_DIR)
  get_filename_component(TALLY_NCCL_BUILD_PREFIX "${TALLY_NCCL_INCLUDE_DIR}" DIRECTORY)
endif()
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/tallyConfig.cmake.in"
                              "${PROJECT_BINARY_DIR}/tallyConfig.cmake"
                              INSTALL_DESTINATION "${TALLY_INSTALL_CMAKEDIR}")
# 0.x: a new minor version may change the API, so only the same major.minor satisfies a request.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/tallyConfigVersion.cmake"
                                 COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/tallyConfig.cmake" "${PROJECT_BINARY_DIR}/tallyConfigVersion.cmake"
              "${PROJECT_SOURCE_DIR}/cmake/tally_find_nccl.cmake"
        DESTINATION "${TALLY_INSTALL_CMAKEDIR}")
