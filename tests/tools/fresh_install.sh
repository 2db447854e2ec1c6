# Sourced by the checks of what a C++ user gets from `cmake --install`
# (install_check.sh, tests/cc/example_check.sh, tests/cc/cmake_app_check.sh).
# fresh_install BUILD_DIR NAME: installs brook from BUILD_DIR into the emptied
# BUILD_DIR/NAME/prefix and sets $root (BUILD_DIR/NAME) and $prefix.
# fail MESSAGE: the check's name and MESSAGE on stderr, then exit 1.
fail() { echo "$(basename "$0" .sh): $*" >&2; exit 1; }
fresh_install() {
  root="$1/$2"
  rm -rf "$root"
  cmake --install "$1" --prefix "$root/prefix" >/dev/null
  prefix="$root/prefix"
}
