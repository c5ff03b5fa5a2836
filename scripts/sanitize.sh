#!/usr/bin/env bash
# Runs the test suite, or part of it, under AddressSanitizer or ThreadSanitizer, each in a
# build directory of its own (.build-asan, .build-tsan), so the normal .build stays as it is:
#
#   scripts/sanitize.sh address|thread [--filter REGEX]... [--skip REGEX]... [--folder NAME]... [--skip-build]
#
#   --filter REGEX   passed to `swift test --filter` (repeatable), e.g. 'HostileLoad|HTTPServer'
#   --skip REGEX     passed to `swift test --skip` (repeatable): the rest of the suite after a part
#   --folder NAME    every suite defined in Tests/MapSnapTests/NAME (repeatable), e.g. Server
#   --skip-build     run what the last build left (the build alone: `swift build --build-tests
#                    --sanitize=KIND --scratch-path .build-asan|.build-tsan`)
#
# Not part of CI (scripts/test.sh, .ci/): on CI's two cores the sanitized build takes 10–15
# minutes and the whole suite 10–30 minutes more (ThreadSanitizer runs renders 10–50× slower),
# which would triple the pipeline. Run it by hand after a change to threading, C interop or
# unsafe pointers, one sanitizer at a time; results and findings go in fuzz/RESULTS.md.
#
# The CLI tests run the `mapsnap` built beside the test bundle, i.e. the sanitized binary of
# the same scratch path (CLIRunner), so the sanitizer watches it too; the options set here
# reach those child processes through the environment. TestEnvironment.isSanitized stretches
# the tests' hang limits five-fold in such a process.
#
# The log goes to .build-KIND/sanitize-KIND[-LABEL].log; the script ends with the test
# count and the number of sanitizer reports in it (exit 1 when there is any report, or when a
# test failed).
#
# LeakSanitizer is off: on Linux it scans memory for exact pointer values, and Swift stores
# pointers to enum payloads with tag bits in their spare bits, so every indirect-enum box
# reachable only through such a pointer (our compiled style expressions) is reported as a
# leak at exit although it is still referenced (llvm/llvm-project#56751). Leaks are checked
# instead by RendererMemoryTests, which renders many distinct styles through one renderer
# and requires its memory to stay flat.
#
# ThreadSanitizer reads scripts/tsan-suppressions.txt when it exists: entries for
# third-party C libraries only, each with a comment saying why (none are needed today).
set -uo pipefail
cd "$(dirname "$0")/.."
kind=${1:-}
shift || true
case "$kind" in
  address)
    export ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:${ASAN_OPTIONS:-}"
    pattern='ERROR: AddressSanitizer|runtime error:'; scratch=.build-asan ;;
  thread)
    supp=""
    [ -f scripts/tsan-suppressions.txt ] && supp="suppressions=$PWD/scripts/tsan-suppressions.txt:"
    export TSAN_OPTIONS="${supp}halt_on_error=0:${TSAN_OPTIONS:-}"
    pattern='WARNING: ThreadSanitizer'; scratch=.build-tsan ;;
  *) echo "usage: scripts/sanitize.sh address|thread [--filter REGEX]... [--skip REGEX]... [--folder NAME]... [--skip-build]" >&2; exit 2 ;;
esac
filters=()
skips=()
label=""""
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --filter) [ $# -ge 2 ] || { echo "--filter needs a value" >&2; exit 2; }
      filters+=("$2"); label="$label-$(printf '%s' "$2" | tr -c 'A-Za-z0-9' '_' | cut -c1-40)"; shift 2 ;;
    --folder) [ $# -ge 2 ] || { echo "--folder needs a value" >&2; exit 2; }
      dir="Tests/MapSnapTests/$2"
      [ -d "$dir" ] || { echo "no folder $dir" >&2; exit 2; }
      # The suites the folder defines: `struct X`/`final class X` under @Suite, or XCTestCase classes.
      names=$(grep -rhoE '^(@Suite[^)]*\)? *)?(final class|struct|class) [A-Z][A-Za-z0-9_]*(Tests|Suite)\b' "$dir" \
              | awk '{print $NF}' | sort -u | paste -sd'|' -)
      [ -n "$names" ] || { echo "no suites found in $dir" >&2; exit 2; }
      filters+=("MapSnapTests\\.($names)\\b"); label="$label-$2"; shift 2 ;;
    --skip) [ $# -ge 2 ] || { echo "--skip needs a value" >&2; exit 2; }
      skips+=("$2"); label="$label-rest"; shift 2 ;;
    --skip-build) build=0; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
export SWIFT_BACKTRACE=enable=no
mkdir -p "$scratch"
log="$scratch/sanitize-$kind$label.log"
start=$(date +%s)
if [ "$build" -eq 1 ]; then
  swift build --build-tests --sanitize="$kind" --scratch-path "$scratch" 2>&1 | tail -n 3
  [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "sanitize $kind: the build failed" >&2; exit 1; }
fi
args=()
for f in "${filters[@]}"; do args+=(--filter "$f"); done
for f in "${skips[@]}"; do args+=(--skip "$f"); done
swift test --skip-build --sanitize="$kind" --scratch-path "$scratch" "${args[@]}" 2>&1 \
  | grep -v -E '^[[:space:]]*◇' > "$log"
status=${PIPESTATUS[0]}
reports=$(grep -cE "$pattern" "$log" || true)
grep -E '^(✔|✘) Test run with|^Executed [0-9]+ tests' "$log" | tail -n 3
echo "sanitize $kind${label:+ ($label)}: test exit $status, $reports sanitizer report(s), $(( $(date +%s) - start )) s; log in $log"
[ "$status" -eq 0 ] && [ "$reports" -eq 0 ]
