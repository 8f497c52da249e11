# The fuzz targets: fuzz/<name>.cpp each, fed by tests/fuzz/regressions/<name>/.
# Read by fuzz/CMakeLists.txt (libFuzzer binaries) and tests/CMakeLists.txt
# (the replay program of the normal test run).
set(APTUS_FUZZ_TARGETS
  tagfile version relation config sources_one_line sources_deb822
  release preferences edsp status cache modernize)
