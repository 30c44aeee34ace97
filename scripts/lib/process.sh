# shellcheck shell=bash
# Supervising processes: every process `up` starts runs detached, from .pmedia/, with a PID file in .pmedia/run/ and a
# log in .pmedia/logs/. A PID is trusted only while its command line points into .pmedia/, so a stale PID file is
# never a reason to signal someone else's process. Nothing is ever stopped by name.

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

pid_of() { # name -> the PID in its file, or nothing
  local file="$RUN/$1.pid"
  [ -f "$file" ] && tr -dc '0-9' <"$file"
  return 0
}

# Alive and its command line names a path under .pmedia/ (every process `up` starts does).
pid_ours() {
  local pid="${1:-}"
  local cmdline
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && [ -r "/proc/$pid/cmdline" ] || return 1
  # (matched in bash: with pipefail, grep -q closing a pipe early could make a long command line look foreign)
  cmdline="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" || return 1
  [[ "$cmdline" == *"$STATE/"* ]]
}

running() { pid_ours "$(pid_of "$1")"; }

# Alive and not a zombie (an exited child of ours that init has not reaped yet is gone for our purposes).
pid_live() {
  kill -0 "$1" 2>/dev/null || return 1
  [ -r "/proc/$1/stat" ] || return 0
  local stat
  stat="$(cat "/proc/$1/stat" 2>/dev/null || true)"
  stat="${stat##*) }"
  [ -n "$stat" ] && [ "${stat%% *}" != Z ]
}

# Starts a command in the background, detached from the terminal's signals, in .pmedia/, output to its log
# (.pmedia/logs/NAME.log; the previous one kept as .log.1); writes .pmedia/run/NAME.pid.
spawn() { # name command...
  local name="$1" log="$LOGS/$1.log"
  shift
  [ -s "$log" ] && mv -f "$log" "$log.1"
  (cd "$STATE" && exec nohup "$@") >"$log" 2>&1 </dev/null &
  local pid="$!" deadline=$((SECONDS + 10))
  echo "$pid" >"$RUN/$name.pid"
  # Until the forked shell has exec'd the command, its command line is ours (./pmedia), not the component's.
  while kill -0 "$pid" 2>/dev/null && ! pid_ours "$pid" && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.05; done
}

# Dies, with the end of the log, when NAME is no longer running.
die_unless_running() { # name
  running "$1" && return 0
  warn "$1 exited while starting; from $LOGS/$1.log:"
  log_tail "$LOGS/$1.log"
  die "$1 did not start (full log: $LOGS/$1.log)"
}

wait_for_port() { # name port
  local deadline=$((SECONDS + READY_TIMEOUT))
  until port_open "$2"; do
    die_unless_running "$1"
    [ "$SECONDS" -lt "$deadline" ] || die "$1 did not open port $2 within ${READY_TIMEOUT}s (see $LOGS/$1.log)"
    sleep 0.3
  done
}

# Waits until http://127.0.0.1:PORT/PATH answers 200 (PATH: a service's management interface's /q/health/ready unless
# given). Returns 1, after saying why, when the process dies or DEADLINE (in $SECONDS) passes.
await_ready() { # name port deadline [path]
  local name="$1" port="$2" deadline="$3" path="${4:-/q/health/ready}" code
  while :; do
    code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$port$path" || true)"
    [ "$code" = 200 ] && return 0
    if ! running "$name"; then
      warn "$name exited while starting; from $LOGS/$name.log:"
      log_tail "$LOGS/$name.log"
      return 1
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      warn "$name is not ready after ${READY_TIMEOUT}s (last $path on :$port answered ${code:-nothing}); see $LOGS/$name.log"
      return 1
    fi
    sleep 0.5
  done
}

# Sends SIGNAL to NAME's process if it is ours; the PID file stays (status shows it down, `up` starts it again).
signal_process() { # name signal
  local pid
  pid="$(pid_of "$1")"
  pid_ours "$pid" || return 1
  kill -"$2" "$pid" 2>/dev/null
}

# TERM, then KILL after STOP_TIMEOUT; removes the PID file. A PID file naming a process that is not ours is removed
# and that process left alone.
stop_process() { # name
  local name="$1" pid deadline
  pid="$(pid_of "$name")"
  if [ -z "$pid" ]; then
    rm -f "$RUN/$name.pid"
    return 0
  fi
  if pid_ours "$pid"; then
    info "stopping $name (pid $pid)"
    kill -TERM "$pid" 2>/dev/null || true
    deadline=$((SECONDS + STOP_TIMEOUT))
    while pid_live "$pid" && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.2; done
    if pid_live "$pid"; then
      warn "$name (pid $pid) did not stop within ${STOP_TIMEOUT}s: killing it"
      kill -KILL "$pid" 2>/dev/null || true
      deadline=$((SECONDS + 10))
      while pid_live "$pid" && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.2; done
    fi
    pid_live "$pid" && die "$name (pid $pid) survives SIGKILL"
  elif pid_live "$pid"; then
    warn "$RUN/$name.pid names pid $pid, which is not a process ./pmedia started: left alone"
  fi
  rm -f "$RUN/$name.pid"
}

# One line of `status`: NAME STATE port PORT pid PID (NOTE). STATE is up when the port answers, starting before.
status_line() { # name port [note]
  local name="$1" port="$2" note="${3:-}" pid state line
  pid="$(pid_of "$name")"
  if pid_ours "$pid"; then
    if port_open "$port"; then state=up; else state=starting; fi
  else
    pid=-
    state=down
    port_open "$port" && note="port taken by a process ./pmedia did not start${note:+; $note}"
  fi
  line="$(printf '%-15s %-9s port %-5s pid %-8s%s' "$name" "$state" "$port" "$pid" "${note:+ ($note)}")"
  printf '%s\n' "${line%"${line##*[! ]}"}"
}

# Lets one `up`/`down` run at a time (a directory, so no file descriptor leaks into the daemons we start).
take_lock() {
  local lock="$RUN/lock" holder deadline=$((SECONDS + 300))
  until mkdir "$lock" 2>/dev/null; do
    holder="$(cat "$lock/pid" 2>/dev/null || true)"
    if [ -n "$holder" ] && ! kill -0 "$holder" 2>/dev/null; then
      rm -rf "$lock"
      continue
    fi
    [ "$SECONDS" -lt "$deadline" ] || die "another ./pmedia (pid ${holder:-?}) holds $lock; remove it if that is wrong"
    sleep 1
  done
  echo "$$" >"$lock/pid"
  trap 'rm -rf "$RUN/lock"' EXIT
}

# The logs: a list, or one followed.
show_logs() { # [name]
  if [ $# -eq 0 ]; then
    local file
    for file in "$LOGS"/*.log; do
      [ -f "$file" ] || continue
      printf '%-18s %8s  %s\n' "$(basename "$file" .log)" "$(du -h "$file" | cut -f1)" "$file"
    done
    echo "follow one: ./pmedia logs NAME" >&2
    return 0
  fi
  local name="${1%.log}"
  name="${name%-service}"
  [ -f "$LOGS/$name.log" ] || die "no log named $name in $LOGS (./pmedia logs lists them)"
  exec tail -n 200 -f "$LOGS/$name.log"
}
