# Installing agent-run (`cmake --install build --prefix /usr/local`) and the .deb CPack makes of the
# same files (`cpack -G DEB` in the build folder, or ci/build-package.sh):
#   bin/agent-run                            the binary
#   share/agent-run/policies/                the stock policies
#   share/agent-run/schemas/                 report.schema.json and junit.xsd
#   share/agent-run/tasks/examples/          the examples (their `../../policies/` is the stock policies)
#   share/doc/agent-run/README.md and docs/
include(GNUInstallDirs)
install(TARGETS agent-run RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/policies/ DESTINATION ${CMAKE_INSTALL_DATADIR}/agent-run/policies)
install(FILES ${CMAKE_SOURCE_DIR}/reports/report.schema.json ${CMAKE_SOURCE_DIR}/reports/junit.xsd
        DESTINATION ${CMAKE_INSTALL_DATADIR}/agent-run/schemas)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/tasks/examples/ DESTINATION ${CMAKE_INSTALL_DATADIR}/agent-run/tasks/examples
        PATTERN "__pycache__" EXCLUDE)
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/agent-run)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/agent-run/docs)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME agent-run)
set(CPACK_PACKAGE_VENDOR agent-run)
set(CPACK_PACKAGE_CONTACT "agent-run maintainers <agent-run@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "headless runner for an LLM coding agent in CI")
set(CPACK_PACKAGE_DESCRIPTION "agent-run reads YAML task files and an approval policy, runs the agent loop with every tool call approved or denied by the policy, judges each attempt by the task's checks, and writes JSON, JUnit XML, Markdown and HTML reports.")
set(CPACK_STRIP_FILES ON)                        # the debug info stays in the build folder
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)          # agent-run_<version>_<architecture>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)           # Depends: the libraries the binary links against
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "bubblewrap, git, ripgrep")
include(CPack)
