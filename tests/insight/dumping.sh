# Sourced by check-dump-blocked and check-dump-kwait, which set gmprun,
# tmp and pid (killed by their cleanup).
#
# start_dumping PROCS PROG FILE: runs PROG under gmprun -p PROCS with
# GMP_DUMP_SIGNAL dumps on SIGUSR1 appended to FILE, and waits for its
# "ready" line (none: the script fails).
start_dumping() {
  dumpfile=$3
  GMP_DUMP_SIGNAL=USR1 GMP_DUMP_FILE="$dumpfile" "$gmprun" -p "$1" -- "$2" >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  for _ in $(seq 200); do grep -q ready "$tmp/out" 2>/dev/null && break; sleep 0.1; done
  grep -q ready "$tmp/out" || { echo "FAIL: $1 P: no ready line"; cat "$tmp/err"; exit 1; }
}

# dump N: asks for the Nth dump and waits until it is complete (its last
# line, after the last stanza, is in the file).
dump() {
  kill -USR1 "$pid"
  for _ in $(seq 100); do [ "$(grep -c '^gmp: dump on signal 10$' "$dumpfile" 2>/dev/null)" -ge "$1" ] && break; sleep 0.1; done
  sleep 0.5
}
