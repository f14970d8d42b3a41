include(CMakePackageConfigHelpers)

set(ecmeta_config_dir "${CMAKE_INSTALL_DATADIR}/cmake/ecmeta")

install(DIRECTORY include/ecmeta DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" COMPONENT ecmeta_Development)
install(TARGETS ecmeta_core ecmeta_ecmeta ecmeta_testing EXPORT ecmetaTargets)
install(
  EXPORT ecmetaTargets
  NAMESPACE ecmeta::
  DESTINATION "${ecmeta_config_dir}"
  COMPONENT ecmeta_Development)

configure_package_config_file(cmake/ecmetaConfig.cmake.in "${PROJECT_BINARY_DIR}/ecmetaConfig.cmake"
                              INSTALL_DESTINATION "${ecmeta_config_dir}")
# Headers only: any architecture may use the package.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/ecmetaConfigVersion.cmake" COMPATIBILITY SameMinorVersion
                                 ARCH_INDEPENDENT)
install(FILES "${PROJECT_BINARY_DIR}/ecmetaConfig.cmake" "${PROJECT_BINARY_DIR}/ecmetaConfigVersion.cmake"
        DESTINATION "${ecmeta_config_dir}" COMPONENT ecmeta_Development)
