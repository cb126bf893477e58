# Installation and the package for find_package(Strata): headers, libraries,
# tools, descriptions and the cmake helpers (strata_add_target()).
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

get_property(strata_libs GLOBAL PROPERTY STRATA_EXPORTED_LIBS)
install(TARGETS ${strata_libs} EXPORT StrataExports
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT StrataExports NAMESPACE Strata::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Strata)
install(DIRECTORY core/include/strata dialects/strata/include/strata
  DESTINATION include FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${STRATA_BINARY_DIR}/core/include/strata
  ${STRATA_BINARY_DIR}/dialects/strata/include/strata
  DESTINATION include FILES_MATCHING PATTERN "*.inc")
configure_package_config_file(cmake/StrataConfig.cmake.in
  ${STRATA_BINARY_DIR}/StrataConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Strata)
write_basic_package_version_file(${STRATA_BINARY_DIR}/StrataConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${STRATA_BINARY_DIR}/StrataConfig.cmake
  ${STRATA_BINARY_DIR}/StrataConfigVersion.cmake
  cmake/StrataTarget.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Strata)
