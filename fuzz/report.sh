#!/usr/bin/env bash
# Prints the latest fuzz/run.sh result of every target as a Markdown table (the table in
# fuzz/RESULTS.md), from .build/fuzz/logs/summary.tsv. Targets without a run are listed as
# such, so a missing run shows.
#
# Usage: fuzz/report.sh [SUMMARY.tsv]
set -euo pipefail
cd "$(dirname "$0")/.."
summary="${1:-.build/fuzz/logs/summary.tsv}"
[ -f "$summary" ] || { echo "fuzz/report.sh: no $summary (run fuzz/run.sh first)" >&2; exit 2; }
echo "| target | finished (UTC) | seconds | runs | corpus (inputs/bytes) | peak RSS | findings |"
echo "|---|---|---|---|---|---|---|"
for t in $(fuzz/run.sh --list); do
  # Columns: date, target, seconds, runs, corpus, peak RSS, findings, exit status.
  line=$(awk -F'\t' -v t="$t" '$2 == t { last = $0 } END { print last }' "$summary")
  if [ -z "$line" ]; then
    echo "| $t | not run | | | | | |"
    continue
  fi
  IFS=$'\t' read -r date _ seconds runs corpus rss findings status <<<"$line"
  runs=$(printf "%'d" "$runs" 2>/dev/null || echo "$runs")
  echo "| $t | ${date/T/ } | $seconds | $runs | $corpus | $rss | $findings${status:+ ($status)} |"
done
