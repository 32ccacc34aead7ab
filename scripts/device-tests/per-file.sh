#!/usr/bin/env bash
# On the lent GPU machine: each matching test file of the bundle in a process of its own (as vitest isolates files:
# the no-adapter tests change module state), PAR at a time, each under CAP seconds; a log per file under $OUT/logs,
# then the totals and the files that failed or never finished. bundle.mjs copies this script next to the bundle.
#   bash .device/run.sh bash .carry-run/per-file.sh CAP PAR [substring …] [!substring …]
cap=$1; par=$2; shift 2
mkdir -p "$OUT/logs"
LIST=1 node .carry-run/device-tests/run.mjs "$@" > "$OUT/files.txt"
echo "$(wc -l < "$OUT/files.txt") files"
run1() { f=$1; n=$(echo "$f" | tr '/' '_'); timeout "$cap" node .carry-run/device-tests/run.mjs "$f" > "$OUT/logs/$n.log" 2>&1; echo "rc=$? $f" >> "$OUT/logs/$n.log"; }
export -f run1; export cap OUT
xargs -P "$par" -I{} bash -c 'run1 {}' < "$OUT/files.txt"
grep -h "passed, .* failed" "$OUT"/logs/*.log | awk '{p+=$1; f+=$3; s+=$5} END {print p" passed, "f" failed, "s" skipped"}'
grep -l "^FAIL" "$OUT"/logs/*.log | xargs -n1 basename
grep -L "passed, .* failed" "$OUT"/logs/*.log | xargs -n1 basename | sed 's/^/no summary: /'
