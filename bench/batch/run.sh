#!/usr/bin/env bash
# Batch benchmark (docs/performance.md, "Batch"), through the running stack (started with ./pmedia up unless it runs):
#   tiny      N rows (default 10,000) of a tiny template (bench/batch/tiny.json: 1 s, 320x180) as one batch task:
#             rows per minute, against bare FFmpeg running the command the engine generates for such a row back to
#             back on the same cores, reading the frames the graphics engine drew for it from a file (bench/render's
#             PMEDIA_BENCH_KEEP; goal: batch / bare >= 0.9)
#   demo      the same with M rows (default 1,000) of the demo template (10 s 1280x720, name, offer, an 800x800 photo)
#   tour      (issue 25; runs only when asked: bench/batch/run.sh tour) T rows (default 1,000) of the product-tour
#             sample template (30 s 1280x720, a background clip, the name 2-5 s and the offer 20-23 s, a soundtrack),
#             every row with its own name and offer, as one batch task: rows per minute, against bare FFmpeg running
#             full renders of the same rows back to back on the same cores (for each row the command the engine
#             generates, made by bench/batch/BareRows.java with the running stack's media-service build, reading the
#             frames the graphics engine draws for that row from a file written before its timed run; goal: batch /
#             bare >= 3). One bare render takes about 5.5 s on 2 cores: sample the bare side, e.g.
#             PMEDIA_BENCH_BARE_RUNS=50 (its first 50 rows)
#   ingest    the peak RSS of batch-service while it reads a 1,000,000-row file (about 200 MB) into rows; the task is
#             cancelled once its rows are stored
#   realtime  time-to-video p50/p99 of demo-template requests arriving at a steady rate, with no batch running and then
#             while a 10,000-row tiny batch runs, in the same run (goal: p99 ratio <= 1.2)
#   links     (issue 37; runs only when asked: bench/batch/run.sh links) the links out of an on-view task of L rows
#             (default 1,000,000) of the product-tour sample (found over GET /templates): create -> COMPLETED, the
#             share URLs counted in its output file, and how long after COMPLETED its last link opens (GET of the last
#             row's share URL until it is no longer 404: engagement-service has projected every page); the peak RSS of
#             batch-service and engagement-service from the create to that open, and the rows projected every 15 s (a
#             count over engagement-service's table: not more often).
#             Goal: <= 60 s with RSS within each service's heap. Nothing is rendered but the last link's open.
#   fair      (issue 37; runs only when asked) the complaint's run: the demo vendor's task of F rows (default 60) of
#             the greeting sample, a vendor of the bench's own creates a one-row task FAIR_AFTER (5.7) s later: when
#             B completes and how many of A's rows were answered by then; A's wall time a row against its mean
#             render_millis and its rows' time in flight (from pmedia_batch, through psql)
# Usage: bench/batch/run.sh [PART...]     (default: tiny demo ingest realtime; ./pmedia bench batch runs those four)
# Sizes: PMEDIA_BENCH_TINY_ROWS, PMEDIA_BENCH_DEMO_ROWS, PMEDIA_BENCH_TOUR_ROWS, PMEDIA_BENCH_INGEST_ROWS,
# PMEDIA_BENCH_LINKS_ROWS, PMEDIA_BENCH_FAIR_ROWS,
# PMEDIA_BENCH_BARE_RUNS (bare renders timed per template; default: as many as rows), PMEDIA_BENCH_REALTIME_REQUESTS
# (60), PMEDIA_BENCH_REALTIME_EVERY (3 s). For example:
#   PMEDIA_BENCH_BARE_RUNS=50 bench/batch/run.sh tour
# The ingestion alone, without the stack: bench/batch/ingest.sh.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
PARTS=("$@")
[ "${#PARTS[@]}" -gt 0 ] || PARTS=(tiny demo ingest realtime)
TINY_ROWS="${PMEDIA_BENCH_TINY_ROWS:-10000}"
DEMO_ROWS="${PMEDIA_BENCH_DEMO_ROWS:-1000}"
TOUR_ROWS="${PMEDIA_BENCH_TOUR_ROWS:-1000}"
INGEST_ROWS="${PMEDIA_BENCH_INGEST_ROWS:-1000000}"
LINKS_ROWS="${PMEDIA_BENCH_LINKS_ROWS:-1000000}"
REALTIME_REQUESTS="${PMEDIA_BENCH_REALTIME_REQUESTS:-60}"
REALTIME_EVERY="${PMEDIA_BENCH_REALTIME_EVERY:-3}"

# shellcheck source=scripts/lib/stack.sh
. scripts/lib/stack.sh
use_stack batch >/dev/null
work="$(mktemp -d)"
TASK=""
cleanup() {
  if [ -n "$TASK" ]; then cancel_task "$TASK" >/dev/null 2>&1 || true; fi
  bench_vendor_remove
  rm -rf "$work"
  release_stack >/dev/null
}
trap cleanup EXIT
GW="$PMEDIA_GATEWAY_URL"
TOKEN="$(demo_token)"
now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.3f\", $1 }"; }
# past SINCE SECONDS: whether SECONDS have passed since SINCE (a now)
past() { awk "BEGIN { exit !($(now) - $1 >= $2) }"; }

printf 'batch benchmark, %s, %s (%s cores), commit %s\n' "$(date -u +%F)" \
  "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" "$(nproc)" "$(git rev-parse --short HEAD)"

# --- helpers -----------------------------------------------------------------------------------------------------

# sql_in DATABASE SQL: what psql answers (unaligned, no headers) in one of the stack's databases; empty when it cannot.
sql_in() {
  PGPASSWORD="${PMEDIA_DB_PASSWORD:-pmedia}" psql -h "${PMEDIA_DB_HOST:-127.0.0.1}" -p "${PMEDIA_DB_PORT:-5432}" \
    -U "${PMEDIA_DB_USER:-pmedia}" -d "$1" -Atc "$2" 2>/dev/null || true
}

# register_tiny: registers bench/batch/tiny.json (idempotent) and prints its template-id.
register_tiny() {
  local answer
  answer="$(curl -s -X POST "$GW/admin/templates" -H "Authorization: Bearer $PMEDIA_ADMIN_TOKEN" \
    -H 'Content-Type: application/json' --data-binary @bench/batch/tiny.json)"
  field "$answer" template-id
}

# input_file ROWS WITH_PHOTO: a CSV of ROWS customers in the demo vendor's namespace; prints its file-path.
input_file() {
  local rows="$1" photo="${2:-}" file="$work/input-$1.csv"
  if [ -n "$photo" ]; then
    awk -v n="$rows" -v p="$photo" 'BEGIN { print "user-id,name,offer,image-url";
      for (i = 1; i <= n; i++) printf "u-%d,Ada %d,20%% off your next order,%s\n", i, i, p }' >"$file"
  else
    awk -v n="$rows" 'BEGIN { print "user-id,name,offer";
      for (i = 1; i <= n; i++) printf "u-%d,Ada %d,20%% off your next order\n", i, i }' >"$file"
  fi
  stack_upload "$TOKEN" "$file" "input-$rows.csv"
}

# create_task FILE_PATH ROWS TEMPLATE_ID MINUTES: creates a batch task; prints its task-id.
create_task() {
  local answer task
  answer="$(curl -s -X POST "$GW/media/task/create" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' -d "{\"campaign-id\":\"bench\",\"template-id\":\"$3\",\"file-path\":\"$1\",
      \"row-count\":$2,\"expected-output-duration\":$4}")"
  task="$(field "$answer" task-id)"
  [ -n "$task" ] || { echo "create failed: $answer" >&2; return 1; }
  printf '%s' "$task"
}

task_status() { curl -s "$GW/media/task/status/$1" -H "Authorization: Bearer $TOKEN"; }
cancel_task() { curl -s -X POST "$GW/media/task/cancel/$1" -H "Authorization: Bearer $TOKEN"; }
number() { printf '%s' "$1" | tr -d '\n' | sed -n "s/.*\"$2\"[[:space:]]*:[[:space:]]*\([0-9]*\).*/\1/p" | head -n 1; }

# await_status TASK STATUS...: polls until the task has one of the statuses; prints its last status answer.
await_status() {
  local task="$1" status
  shift
  while :; do
    status="$(task_status "$task")"
    for wanted in "$@"; do
      [ "$(field "$status" status)" = "$wanted" ] && { printf '%s' "$status"; return 0; }
    done
    case "$(field "$status" status)" in FAILED | COMPLETED) echo "the task ended: $status" >&2; return 1 ;; esac
    sleep 0.5
  done
}

# bare_command TEMPLATE_FILE DIR: the FFmpeg command the engine generates for one row (bench/render keeps it in DIR).
bare_command() { PMEDIA_BENCH_KEEP="$2" bench/render/run.sh 1 "$1" >/dev/null; }

# --- throughput: a batch task against bare FFmpeg -------------------------------------------------------------------

# throughput NAME ROWS TEMPLATE_FILE TEMPLATE_ID WITH_PHOTO
throughput() {
  local name="$1" rows="$2" template_file="$3" template_id="$4" with_photo="$5" photo="" input start batch bare runs
  bare_command "$template_file" "$work/bare-$name"
  if [ "$with_photo" = 1 ]; then
    photo="$(stack_upload "$TOKEN" "$work/bare-$name/asset-0" photo.png)"
    photo="$PMEDIA_S3_ENDPOINT/${photo#s3://}"
  fi
  input="$(input_file "$rows" "$photo")"
  start="$(now)"
  TASK="$(create_task "$input" "$rows" "$template_id" 1440)"
  status="$(await_status "$TASK" COMPLETED)"
  batch="$(calc "$(now) - $start")"
  TASK=""
  printf '%s' "$status" | grep -q "\"message\":\"$rows of $rows rows rendered" ||
    echo "  warning: not every row rendered: $status" >&2
  runs="${PMEDIA_BENCH_BARE_RUNS:-$rows}"
  start="$(now)"
  for _ in $(seq 1 "$runs"); do bash "$work/bare-$name/command.sh" >/dev/null 2>&1; done
  bare="$(calc "$(now) - $start")"
  printf '%s: %s rows as one batch task (create -> COMPLETED): %.1f s, %.0f rows/min\n' "$name" "$rows" "$batch" \
    "$(calc "$rows * 60 / $batch")"
  printf '%s: bare ffmpeg, %s renders back to back: %.1f s, %.0f rows/min\n' "$name" "$runs" "$bare" \
    "$(calc "$runs * 60 / $bare")"
  printf '%s: batch / bare (rows per minute): %.2f   (goal >= 0.9)\n' "$name" \
    "$(calc "($rows / $batch) / ($runs / $bare)")"
}

# --- tour: every row its own, against bare full renders of the same rows ------------------------------------------

# tour ROWS: a batch task of ROWS product-tour rows, each with its own name and offer (so each has personal chunks of
# its own), timed create -> COMPLETED as throughput times it; then the first PMEDIA_BENCH_BARE_RUNS of the same rows
# (default: all) rendered in full by bare FFmpeg, one after another, each with the command the engine generates for it.
tour() {
  local rows="$1" name=tour file="$work/input-tour-$1.csv" assets template id input start status batch runs bare dir
  # the template as ./pmedia up registers it (scripts/lib/samples.sh, sample_template): registering it again is
  # idempotent and answers its template-id
  assets="$PMEDIA_S3_ENDPOINT/$PMEDIA_S3_BUCKET/inputs/$PMEDIA_DEMO_CLIENT_ID/samples"
  template="$work/product-tour.json"
  sed -e "s|@PMEDIA_DEMO_CLIENT_ID@|$PMEDIA_DEMO_CLIENT_ID|g" -e "s|@PMEDIA_SAMPLE_ASSETS@|$assets|g" \
    deploy/local/templates/product-tour.json >"$template"
  id="$(field "$(curl -s -X POST "$GW/admin/templates" -H "Authorization: Bearer $PMEDIA_ADMIN_TOKEN" \
    -H 'Content-Type: application/json' --data-binary @"$template")" template-id)"
  [ -n "$id" ] || { echo "registering product-tour failed" >&2; return 1; }
  awk -v n="$rows" 'BEGIN { print "user-id,name,offer";
    for (i = 1; i <= n; i++) printf "u-%d,Ada %d,Offer %d: 20%% off your next order\n", i, i, i }' >"$file"
  input="$(stack_upload "$TOKEN" "$file" "input-tour-$rows.csv")"
  start="$(now)"
  TASK="$(create_task "$input" "$rows" "$id" 1440)"
  status="$(await_status "$TASK" COMPLETED)"
  batch="$(calc "$(now) - $start")"
  TASK=""
  printf '%s' "$status" | grep -q "\"message\":\"$rows of $rows rows rendered" ||
    echo "  warning: not every row rendered: $status" >&2
  # the bare commands of the first rows, from the engine the running stack renders with (its build in .pmedia/app)
  local bare_args=("$template" "$file" "${PMEDIA_BENCH_BARE_RUNS:-$rows}" "$work/bare-$name"
    "$assets/product-tour/background.mp4=.pmedia/samples/product-tour/background.mp4"
    "$assets/product-tour/soundtrack.m4a=.pmedia/samples/product-tour/soundtrack.m4a")
  local classpath='.pmedia/app/media/app/*:.pmedia/app/media/lib/main/*:.pmedia/app/media/lib/boot/*'
  runs="$(java -cp "$classpath" bench/batch/BareRows.java "${bare_args[@]}")"
  bare=0
  for i in $(seq 1 "$runs"); do
    dir="$work/bare-$name/row-$i"
    # the engine's frames of this row (its texts), drawn into a file before the timed run: the bare command does all
    # of FFmpeg's work, only not the drawing
    java -cp "$classpath" bench/batch/BareRows.java "--frames=$i" "${bare_args[@]}"
    start="$(now)"
    bash "$dir/command.sh" >/dev/null 2>&1 || echo "  warning: the bare render of row $i failed" >&2
    bare="$(calc "$bare + $(now) - $start")"
    rm -f "$dir/video.mp4" "$dir/thumbnail.jpg" "$dir/frames.rgba"
  done
  printf '%s: %s rows as one batch task (create -> COMPLETED): %.1f s, %.0f rows/min\n' "$name" "$rows" "$batch" \
    "$(calc "$rows * 60 / $batch")"
  printf '%s: bare ffmpeg, full renders of the first %s rows back to back: %.1f s, %.1f rows/min\n' "$name" "$runs" \
    "$bare" "$(calc "$runs * 60 / $bare")"
  printf '%s: batch / bare (rows per minute): %.2f   (goal >= 3)\n' "$name" \
    "$(calc "($rows / $batch) / ($runs / $bare)")"
}

# --- fair: issue 37's complaint, vendor A's 60 rows and vendor B's one -----------------------------------------------

# rows_sql TASK SQL_EXPR: one figure over TASK's rows from pmedia_batch (empty when psql cannot ask).
rows_sql() { sql_in pmedia_batch "SELECT $2 FROM batch_row WHERE task_id = '$1'"; }

# fair ROWS: the demo vendor (A) creates a ROWS-row task of the greeting sample, a vendor of the benchmark's own (B) a
# one-row task FAIR_AFTER seconds later (the complaint: 60 rows, 5.7 s). Prints when B completed and how many of A's
# rows had been answered by then, then lets A finish: A's wall time a row (first answer to last) against its mean
# render_millis, and its rows' mean time in flight (submitted -> answered), from batch-service's rows.
fair() {
  local rows="$1" after="${FAIR_AFTER:-5.7}" input start a b b_done a_at_b status
  input="$(input_file "$rows" "")"
  bench_vendor "fair share B"
  local b_input b_file="$work/b.csv"
  printf 'user-id,name,offer\nu-1,Bea,20%% off your next order\n' >"$b_file"
  b_input="$(stack_upload "$BENCH_TOKEN" "$b_file" b.csv)"
  start="$(now)"
  a="$(create_task "$input" "$rows" "$PMEDIA_DEMO_TEMPLATE_ID" 1440)"
  TASK="$a"
  while ! past "$start" "$after"; do sleep 0.05; done
  b="$(TOKEN="$BENCH_TOKEN" create_task "$b_input" 1 "$PMEDIA_DEMO_TEMPLATE_ID" 1440)"
  status="$(TOKEN="$BENCH_TOKEN" await_status "$b" COMPLETED)"
  b_done="$(calc "$(now) - $start")"
  a_at_b="$(number "$(task_status "$a")" processed)"
  printf 'fair: B (1 row, created %.1f s after A) COMPLETED %.1f s after A was created, when A had %s of %s rows answered\n' \
    "$after" "$b_done" "$a_at_b" "$rows"
  await_status "$a" COMPLETED >/dev/null
  TASK=""
  printf 'fair: A (%s rows) COMPLETED %.1f s after its creation\n' "$rows" "$(calc "$(now) - $start")"
  printf 'fair: A, wall a row (first answer to last) %s s, mean render_millis %s ms, mean in flight %s s\n' \
    "$(rows_sql "$a" "round((extract(epoch FROM max(answered_at) - min(answered_at)) / greatest(count(*) - 1, 1))::numeric, 2)")" \
    "$(rows_sql "$a" "round(avg(render_millis))")" \
    "$(rows_sql "$a" "round(avg(extract(epoch FROM answered_at - submitted_at))::numeric, 2)")"
  bench_vendor_remove
  BENCH_CLIENT=""
}

# --- ingestion: peak RSS of batch-service ---------------------------------------------------------------------------

ingest() {
  local pid rss peak=0 base input start status file="$work/ingest.csv" rows="$INGEST_ROWS"
  pid="$(cat .pmedia/run/batch.pid)"
  awk -v n="$rows" 'BEGIN { print "user-id,name,offer,image-url";
    for (i = 1; i <= n; i++) printf "customer-%08d,\"Customer %08d, Esq.\",\"Offer %08d: 20%% off your next order of shoes, bags or coats, this week only\",https://cdn.example.com/customers/%08d/portrait-photo-large.png\n", i, i, i, i }' >"$file"
  input="$(stack_upload "$TOKEN" "$file" ingest.csv)"
  base="$(awk '/VmRSS/ { print $2 }' "/proc/$pid/status")"
  start="$(now)"
  TASK="$(create_task "$input" "$rows" "$PMEDIA_DEMO_TEMPLATE_ID" 1440)"
  while :; do
    rss="$(awk '/VmRSS/ { print $2 }' "/proc/$pid/status")"
    [ "$rss" -gt "$peak" ] && peak="$rss"
    status="$(task_status "$TASK")"
    case "$(field "$status" status)" in
      "IN PROGRESS" | COMPLETED) break ;;
      FAILED) echo "the ingestion failed: $status" >&2; return 1 ;;
    esac
    sleep 0.2
  done
  printf 'ingest: %s rows, %.0f MB, read in %.1f s; batch-service RSS %d MB before, peak %d MB while reading\n' \
    "$(number "$status" total-count)" "$(calc "$(stat -c %s "$file") / 1000000")" "$(calc "$(now) - $start")" \
    "$((base / 1024))" "$((peak / 1024))"
  cancel_task "$TASK" >/dev/null
  TASK=""
}

# --- links out: a million-row task rendered on view -----------------------------------------------------------------

# rss_peaks FILE NAME...: until killed, samples the RSS (kB) of each named service every 0.2 s and keeps the peak of
# each in FILE ("name kB" lines).
rss_peaks() {
  local file="$1" name pid rss
  shift
  declare -A peak=()
  for name in "$@"; do peak[$name]=0; done
  while :; do
    for name in "$@"; do
      pid="$(cat ".pmedia/run/$name.pid" 2>/dev/null || true)"
      rss="$(awk '/VmRSS/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0)"
      [ "${rss:-0}" -gt "${peak[$name]}" ] && peak[$name]="$rss"
    done
    for name in "$@"; do printf '%s %s\n' "$name" "${peak[$name]}"; done >"$file.tmp" && mv -f "$file.tmp" "$file"
    sleep 0.2
  done
}

# projected TASK: rows of TASK engagement-service has projected (its shared_video table; empty when psql cannot ask).
projected() { sql_in pmedia_engagement "SELECT count(*) FROM shared_video WHERE task_id = '$1'"; }

# links ROWS: an on-view task of ROWS product-tour rows, each with its own name and offer, from the create to COMPLETED
# with every share URL in its output file, then to its last link opening.
links() {
  local rows="$1" file="$work/input-links-$1.csv" template input start status done_at last code opened sampler
  local base_b base_e peaks="$work/rss-peaks" since lines task
  template="$(template_of "$TOKEN" product-tour)"
  [ -n "$template" ] || { echo "the demo vendor has no product-tour template" >&2; return 1; }
  awk -v n="$rows" 'BEGIN { print "user-id,name,offer";
    for (i = 1; i <= n; i++) printf "customer-%08d,Customer %d,Offer %d: 20%% off your next order\n", i, i, i }' >"$file"
  input="$(stack_upload "$TOKEN" "$file" "input-links-$rows.csv")"
  base_b="$(awk '/VmRSS/ { print $2 }' "/proc/$(cat .pmedia/run/batch.pid)/status")"
  base_e="$(awk '/VmRSS/ { print $2 }' "/proc/$(cat .pmedia/run/engagement.pid)/status")"
  rss_peaks "$peaks" batch engagement &
  sampler=$!
  start="$(now)"
  status="$(curl -s -X POST "$GW/media/task/create" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    -d "{\"campaign-id\":\"bench-links\",\"template-id\":\"$template\",\"file-path\":\"$input\",\"row-count\":$rows,
         \"expected-output-duration\":1440,\"render\":\"on-view\"}")"
  TASK="$(field "$status" task-id)"
  [ -n "$TASK" ] || { kill "$sampler"; echo "create failed: $status" >&2; return 1; }
  since="$start"
  while :; do
    status="$(task_status "$TASK")"
    case "$(field "$status" status)" in
      COMPLETED) break ;;
      FAILED) kill "$sampler"; echo "the task failed: $status" >&2; return 1 ;;
    esac
    if past "$since" 15; then
      printf '  %5.1f s: %s, %s rows projected\n' "$(calc "$(now) - $start")" "$(field "$status" status)" \
        "$(projected "$TASK")"
      since="$(now)"
    fi
    sleep 0.2
  done
  done_at="$(now)"
  task="$TASK"
  TASK=""
  # the last row's share URL, from the output file's last line
  curl -sf "$(field "$status" file-url)" -o "$work/links-output.csv"
  lines="$(grep -c '/v/' "$work/links-output.csv" || true)"
  last="$(tail -n 1 "$work/links-output.csv" | grep -o 'http[^,]*/v/[A-Za-z0-9_-]*' || true)"
  [ -n "$last" ] || { kill "$sampler"; echo "the output file's last line has no share URL" >&2; return 1; }
  since="$(now)"
  while :; do
    code="$(curl -s -o /dev/null -w '%{http_code}' "$last")"
    [ "$code" = 200 ] && break
    [ "$code" = 404 ] || { kill "$sampler"; echo "the last link answered $code" >&2; return 1; }
    if past "$since" 15; then
      printf '  %5.1f s: COMPLETED, %s rows projected\n' "$(calc "$(now) - $start")" "$(projected "$task")"
      since="$(now)"
    fi
    past "$done_at" 1800 && { kill "$sampler"; echo "the last link never opened" >&2; return 1; }
    sleep 0.2
  done
  opened="$(now)"
  kill "$sampler"
  wait "$sampler" 2>/dev/null || true
  printf 'links: %s rows rendered on view, %s share URLs in the output file (%.0f MB)\n' "$rows" "$lines" \
    "$(calc "$(stat -c %s "$work/links-output.csv") / 1000000")"
  printf 'links: create -> COMPLETED %.1f s; the last link opens %.1f s after COMPLETED (%.1f s from the create)   (goal <= 60 s)\n' \
    "$(calc "$done_at - $start")" "$(calc "$opened - $done_at")" "$(calc "$opened - $start")"
  printf 'links: peak RSS batch-service %d MB (%d MB before), engagement-service %d MB (%d MB before)\n' \
    "$(($(awk '$1 == "batch" { print $2 }' "$peaks") / 1024))" "$((base_b / 1024))" \
    "$(($(awk '$1 == "engagement" { print $2 }' "$peaks") / 1024))" "$((base_e / 1024))"
}

# --- realtime with and without a batch ------------------------------------------------------------------------------

realtime() {
  local photo tiny input quiet busy
  bare_command deploy/local/templates/greeting.json "$work/bare-realtime"
  photo="$(stack_upload "$TOKEN" "$work/bare-realtime/asset-0" photo.png)"
  photo="$PMEDIA_S3_ENDPOINT/${photo#s3://}"
  quiet="$(java bench/batch/Realtime.java "$GW" "$TOKEN" "$PMEDIA_DEMO_API_KEY" "$PMEDIA_DEMO_USE_CASE_ID" \
    "$REALTIME_REQUESTS" "$REALTIME_EVERY" "$photo")"
  tiny="$(register_tiny)"
  input="$(input_file 10000)"
  TASK="$(create_task "$input" 10000 "$tiny" 1440)"
  await_status "$TASK" "IN PROGRESS" >/dev/null
  busy="$(java bench/batch/Realtime.java "$GW" "$TOKEN" "$PMEDIA_DEMO_API_KEY" "$PMEDIA_DEMO_USE_CASE_ID" \
    "$REALTIME_REQUESTS" "$REALTIME_EVERY" "$photo")"
  status="$(task_status "$TASK")"
  cancel_task "$TASK" >/dev/null
  TASK=""
  read -r q50 q99 qmax qfail <<<"$(head -n 1 <<<"$quiet")"
  read -r b50 b99 bmax bfail <<<"$(head -n 1 <<<"$busy")"
  printf 'realtime: %s demo requests, one every %s s, time-to-video (request -> SUCCESS status)\n' \
    "$REALTIME_REQUESTS" "$REALTIME_EVERY"
  printf 'realtime: no batch:            p50 %.2f s  p99 %.2f s  max %.2f s  failures %s\n' "$q50" "$q99" "$qmax" "$qfail"
  printf 'realtime: 10,000-row batch:    p50 %.2f s  p99 %.2f s  max %.2f s  failures %s  (batch rows processed meanwhile: %s)\n' \
    "$b50" "$b99" "$bmax" "$bfail" "$(number "$status" processed)"
  printf 'realtime: p99 with / without: %.2f   (goal <= 1.2)\n' "$(calc "$b99 / $q99")"
  plot_realtime "$(tail -n 1 <<<"$quiet")" "$(tail -n 1 <<<"$busy")"
}

# plot_realtime QUIET_TIMES BUSY_TIMES: the two distributions of time-to-video as a PNG (gnuplot, when installed), for
# docs/performance.md; the data files stay beside it.
plot_realtime() {
  local out="${PMEDIA_BENCH_OUT:-.pmedia/bench/batch}"
  mkdir -p "$out"
  tr ' ' '\n' <<<"$1" | sort -g | awk '{ a[NR] = $1 } END { for (i = 1; i <= NR; i++) print a[i], i / NR }' >"$out/realtime-quiet.dat"
  tr ' ' '\n' <<<"$2" | sort -g | awk '{ a[NR] = $1 } END { for (i = 1; i <= NR; i++) print a[i], i / NR }' >"$out/realtime-batch.dat"
  if command -v gnuplot >/dev/null 2>&1; then
    gnuplot <<PLOT
set terminal pngcairo size 800,480
set output "$out/realtime.png"
set title "Realtime time-to-video, demo template, with and without a 10,000-row batch"
set xlabel "seconds from POST /media/demo to SUCCESS"
set ylabel "share of requests"
set key bottom right
set grid
plot "$out/realtime-quiet.dat" using 1:2 with steps title "no batch", \
     "$out/realtime-batch.dat" using 1:2 with steps title "10,000-row batch running"
PLOT
    printf 'realtime: plot %s/realtime.png\n' "$out"
  else
    printf 'realtime: data %s/realtime-*.dat (install gnuplot for the plot)\n' "$out"
  fi
}

for part in "${PARTS[@]}"; do
  case "$part" in
    tiny) throughput tiny "$TINY_ROWS" bench/batch/tiny.json "$(register_tiny)" 0 ;;
    demo) throughput demo "$DEMO_ROWS" deploy/local/templates/greeting.json "$PMEDIA_DEMO_TEMPLATE_ID" 1 ;;
    tour) tour "$TOUR_ROWS" ;;
    ingest) ingest ;;
    realtime) realtime ;;
    links) links "$LINKS_ROWS" ;;
    fair) fair "${PMEDIA_BENCH_FAIR_ROWS:-60}" ;;
    *) echo "unknown part '$part' (tiny, demo, tour, ingest, realtime, links, fair)" >&2; exit 2 ;;
  esac
done
