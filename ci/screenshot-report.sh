#!/usr/bin/env bash
# Opens a report.html in headless Chromium (Debian's `chromium`, which ci/install-test-tools.sh
# installs) with no network, and saves a screenshot of it. The page holds no script (the tests check
# it), so this is also what a browser with JavaScript off shows; headless Chromium itself takes no
# screenshot with scripts turned off.
#
#   ci/screenshot-report.sh REPORT.html SHOT.png [--dark] [--width=N] [--height=N] [--fragment=ID]
#
# --dark renders it as a browser in dark mode does; --fragment=task-fix-bug-1 opens that attempt
# (`#task-fix-bug-1`), as clicking its link in "What failed" does. With `-` for SHOT.png it prints the
# page's DOM as Chromium holds it once opened (which <details> are open) instead of a screenshot.
set -euo pipefail
report=$(realpath "${1:?REPORT.html}")
shot=${2:?SHOT.png}
[ "$shot" = - ] || shot=$(realpath -m "$shot")
shift 2
width=1200
height=1800
fragment=
colours=()
for option in "$@"; do
  case $option in
    --dark) colours=(--blink-settings=preferredColorScheme=0) ;;  # 0: dark, as prefers-color-scheme sees it
    --width=*) width=${option#--width=} ;;
    --height=*) height=${option#--height=} ;;
    --fragment=*) fragment="#${option#--fragment=}" ;;
    *) echo "ci/screenshot-report.sh: unknown option $option" >&2; exit 2 ;;
  esac
done
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
browser=(chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
  --disable-component-update --disable-sync --user-data-dir="$profile" --host-resolver-rules="MAP * ~NOTFOUND"
  "${colours[@]}" --hide-scrollbars --window-size="$width,$height")
if [ "$shot" = - ]; then
  "${browser[@]}" --dump-dom "file://$report$fragment" 2>/dev/null
  exit
fi
"${browser[@]}" --screenshot="$shot" "file://$report$fragment" >/dev/null 2>&1
[ -s "$shot" ] || { echo "ci/screenshot-report.sh: chromium wrote no screenshot" >&2; exit 1; }
echo "$shot"
