#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer or ThreadSanitizer, in a build directory of
# its own (a sanitized build takes 10–20 minutes; not part of CI's scripts/test.sh):
#
#   scripts/sanitize.sh address     # or: thread
#
# The CLI tests run the `mapsnap` built the same way, so the sanitizer watches it too; the
# environment set here reaches those child processes. The log goes to
# .build/sanitize-KIND.log and the script ends with the number of sanitizer reports in it
# (exit 1 when there is any, or when a test failed).
#
# LeakSanitizer is off: on Linux it scans memory for exact pointer values, and Swift stores
# pointers to enum payloads with tag bits in their spare bits, so every indirect-enum box
# reachable only through such a pointer (our compiled style expressions) is reported as a
# leak at exit although it is still referenced (llvm/llvm-project#56751). Leaks are checked
# instead by RendererMemoryTests, which renders many distinct styles through one renderer
# and requires its memory to stay flat.
set -uo pipefail
cd "$(dirname "$0")/.."
kind=${1:-}
case "$kind" in
  address) export ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:${ASAN_OPTIONS:-}"; pattern='ERROR: AddressSanitizer' ;;
  thread) export TSAN_OPTIONS="halt_on_error=0:${TSAN_OPTIONS:-}"; pattern='WARNING: ThreadSanitizer' ;;
  *) echo "usage: scripts/sanitize.sh address|thread" >&2; exit 2 ;;
esac
export SWIFT_BACKTRACE=enable=no
log=.build/sanitize-$kind.log
mkdir -p .build
swift test --sanitize="$kind" --scratch-path ".build/sanitize-$kind" 2>&1 | grep -v -E '^[[:space:]]*◇' > "$log"
status=${PIPESTATUS[0]}
reports=$(grep -c "$pattern" "$log" || true)
tail -n 3 "$log"
echo "sanitize $kind: test exit $status, $reports sanitizer report(s); log in $log"
[ "$status" -eq 0 ] && [ "$reports" -eq 0 ]
