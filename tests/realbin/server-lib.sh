# Sourced by the realbin scripts that start a server.  tests/run-both runs
# a script under gmprun in its shim mode; only the program under test
# should then run under the shim, its clients being the measuring stick
# in both modes: run it with under_test (or start_server) and the rest
# runs natively.
# The script's own shell is part of the harness and runs natively too
# (re-executed without the shim).
if [ -n "${LD_PRELOAD-}" ] && [ -z "${GMP_REALBIN_PRELOAD+set}" ]; then
  export GMP_REALBIN_PRELOAD=$LD_PRELOAD
  exec env -u LD_PRELOAD "$0" "$@"
fi
shim_preload=${GMP_REALBIN_PRELOAD-}
unset GMP_REALBIN_PRELOAD
py=/usr/bin/python3
tmp=$(mktemp -d)
# Servers still running on any way out (jobs -p: only children not yet
# reaped, so never a recycled pid).
cleanup() {
  local p
  for p in $(jobs -p); do kill -9 "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 143' TERM INT HUP

under_test() {
  if [ -n "$shim_preload" ]; then LD_PRELOAD=$shim_preload "$@"; else "$@"; fi
}

# pid port: pid has a socket listening on 127.0.0.1:port (or any address).
listening() {
  local hex inode
  hex=$(printf '%04X' "$2")
  for inode in $(awk -v p=":$hex" '$2 ~ p"$" && $4 == "0A" { print $10 }' /proc/net/tcp); do
    ls -l "/proc/$1/fd" 2>/dev/null | grep -q "socket:\[$inode\]" && return 0
  done
  return 1
}

# free_port: prints a port free on 127.0.0.1 for both TCP and UDP, below
# the kernel's ephemeral range, so no client's own source port can be the
# server's: named's UDP sockets have SO_REUSEPORT, and a dig whose random
# source port was named's once received its own query (";; Warning: query
# response not set", about 1 run in 20 on a loaded machine, natively too).
free_port() {
  $py - <<'PY'
import random, socket
low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
while True:
    port = random.randrange(max(1024, low - 10000), low)
    try:
        for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM):
            with socket.socket(socket.AF_INET, kind) as s:
                s.bind(("127.0.0.1", port))
    except OSError:
        continue
    print(port)
    break
PY
}

# start_server NAME CMD ARGS...: starts CMD under test with every @PORT@ in
# its arguments replaced by a free port, waits until it listens there, and
# sets $port and $server.  Another process may take the port between our
# probe and the server's bind: then try another.
start_server() {
  local name=$1 try i
  shift
  for try in 1 2 3 4 5; do
    port=$(free_port)
    local args=("${@//@PORT@/$port}")
    (
      if [ -n "$shim_preload" ]; then export LD_PRELOAD=$shim_preload; fi
      exec "${args[@]}"
    ) >"$tmp/$name.log" 2>&1 &
    server=$!
    for i in $(seq 1 600); do
      listening "$server" "$port" && return 0
      kill -0 "$server" 2>/dev/null || break
      sleep 0.05
    done
    kill -9 "$server" 2>/dev/null
    wait "$server" 2>/dev/null
  done
  echo "$name did not start listening:" >&2
  cat "$tmp/$name.log" >&2
  return 1
}

# server_runs_as_gs WHAT NATIVE_MIN [FOREIGN [LOOPS]]: asked of the running
# server itself at a moment it has all its threads.  Natively it has at least
# NATIVE_MIN kernel threads.  In the shim run (GMP_TEST_MODE=shim, whatever
# the launcher did) libgmpshim.so must be mapped in it, and its kernel
# threads must fit what tests/integration/check.h allows: GOMAXPROCS + 7,
# plus FOREIGN threads a library made behind pthread_create's back, plus
# LOOPS threads that may each hold an M of their own in the kernel: event
# loops waiting in their own epoll_wait, as natively (at most 8:
# docs/design.md, Event loops), or threads in file reads that sysmon takes
# the P from, handing it to another M (Ms are never freed, so the most that
# were ever in such calls at once).  Prints one line on stdout, the same in
# both modes when it holds; returns 1 if not.
server_runs_as_gs() {
  local what=$1 min=$2 foreign=$(( ${3:-0} + ${4:-0} )) kt procs
  kt=$(ls "/proc/$server/task" | wc -l)
  if [ "${GMP_TEST_MODE-}" = shim ]; then
    procs=${GMP_MAXPROCS:-${GOMAXPROCS:-$(nproc)}}
    echo "$what: $kt kernel threads under the shim (bound $((procs + 7 + foreign)))" >&2
    if ! grep -q '/libgmpshim\.so$' "/proc/$server/maps"; then
      echo "$what: not running under the shim (no libgmpshim.so in /proc/$server/maps)"; return 1
    fi
    if [ "$kt" -gt $((procs + 7 + foreign)) ]; then
      echo "$what: $kt kernel threads, want at most $((procs + 7 + foreign)) for $procs Ps"; return 1
    fi
  else
    echo "$what: $kt kernel threads natively" >&2
    [ "$kt" -ge "$min" ] || { echo "$what: only $kt kernel threads natively, want $min"; return 1; }
  fi
  echo "$what: its threads checked (kernel threads natively, Gs under the shim)"
}

# stop_server SIGNAL: asks the server to stop and waits for it; prints its status.
stop_server() {
  kill -"$1" "$server" 2>/dev/null
  wait "$server"
}
