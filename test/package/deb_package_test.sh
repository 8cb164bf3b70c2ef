#!/usr/bin/env bash
# The .deb CPack builds from a build folder holds the binary, the stock policies, the schemas and the
# examples; its dependencies are the libraries the binary needs and can be met on this machine; it
# installs with dpkg (into a private root: a test must not install system-wide) and the installed
# binary runs the installed examples, writing reports that validate against the installed schemas.
# `cmake --install` lays out the same files.
#
#   test/package/deb_package_test.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:?BUILD_DIR}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/package" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/package/agent-run_*.deb)
echo "built $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB)"

depends=$(dpkg-deb --field "$deb" Depends)
for library in libpoco libgit2 libyaml-cpp libre2 libstdc++6; do
  grep -q "$library" <<<"$depends" || fail "Depends has no $library: $depends"
done
grep -q bubblewrap <<<"$(dpkg-deb --field "$deb" Recommends)" || fail "Recommends has no bubblewrap"
# apt resolves those dependencies against this machine's packages (a simulation: nothing is installed).
apt-get install --simulate --no-install-recommends "$deb" >"$work/apt.log" 2>&1 ||
  { cat "$work/apt.log"; fail "apt-get cannot install the package here"; }

contents=$(dpkg-deb --contents "$deb")
for file in ./usr/bin/agent-run ./usr/share/agent-run/policies/default.yaml ./usr/share/agent-run/schemas/report.schema.json \
  ./usr/share/agent-run/schemas/junit.xsd ./usr/share/agent-run/tasks/examples/rename-parse-config.yaml \
  ./usr/share/agent-run/tasks/examples/inventory/inventory/config.py ./usr/share/doc/agent-run/README.md \
  ./usr/share/doc/agent-run/docs/tasks.md; do
  grep -q " $file\$" <<<"$contents" || fail "the package has no $file"
done

# dpkg into a private root: its own empty database; the libraries come from this machine.
target=$work/root
mkdir -p "$target/var/lib/dpkg/info" "$target/var/lib/dpkg/updates"
touch "$target/var/lib/dpkg/status"
dpkg --root="$target" --log=/dev/null --force-depends --force-not-root --install "$deb" >"$work/dpkg.log" 2>&1 ||
  { cat "$work/dpkg.log"; exit 1; }
dpkg --root="$target" --status agent-run | grep -q '^Status: install ok installed' || fail "dpkg does not list agent-run as installed"

binary=$target/usr/bin/agent-run
if ldd "$binary" | grep -q 'not found'; then fail "libraries not found: $(ldd "$binary" | grep 'not found')"; fi
if readelf -d "$binary" | grep -qE 'RPATH|RUNPATH'; then fail "the installed binary has a run path: $(readelf -d "$binary" | grep -E 'RPATH|RUNPATH')"; fi
"$binary" --version | grep -q '^agent-run ' || fail "--version says: $("$binary" --version)"

share=$target/usr/share/agent-run
code=0
"$binary" "$share"/tasks/examples/*.yaml --out "$work/out" >"$work/run.log" 2>&1 || code=$?
[ "$code" = 0 ] || { cat "$work/run.log"; fail "the installed binary on the installed examples exited $code"; }
grep -q '^3 attempts: 3 passed' "$work/run.log" || fail "the examples did not all pass: $(cat "$work/run.log")"
python3 -c 'import json, sys, jsonschema; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' \
  "$work/out/report.json" "$share/schemas/report.schema.json" || fail "report.json does not validate against the installed schema"
xmllint --noout --schema "$share/schemas/junit.xsd" "$work/out/junit.xml" 2>"$work/xmllint.log" ||
  { cat "$work/xmllint.log"; fail "junit.xml does not validate against the installed schema"; }

# cmake --install lays out the same files under a prefix.
cmake --install "$build" --prefix "$work/prefix" >/dev/null
for file in bin/agent-run share/agent-run/policies/default.yaml share/agent-run/schemas/report.schema.json \
  share/agent-run/tasks/examples/fix-total-quantity.yaml share/doc/agent-run/README.md share/doc/agent-run/docs/tasks.md; do
  [ -e "$work/prefix/$file" ] || fail "cmake --install did not install $file"
done

if ((failures)); then
  echo "$failures failed"
  exit 1
fi
echo "the package installs with dpkg and its binary passes the examples"
