#!/usr/bin/env bash
# Every test Kindred has (`npm test`): the server suite on PGlite and (when TEST_DATABASE_URL is
# set) on PostgreSQL plus the multi-process suite, side by side, with typecheck, the web component
# tests and the production build running beside them; then the browser flows in Chromium. Every step runs even after one fails (so one run shows everything);
# the exit status is non-zero if any failed.
#
# Needs: Node 20+, `npm ci` done, Chromium at /usr/bin/chromium (or CHROMIUM_PATH) for the browser
# flows; optionally TEST_DATABASE_URL pointing at a PostgreSQL server whose user may create
# databases (scripts/start-test-postgres.sh starts a throwaway one).
set -uo pipefail
cd "$(dirname "$0")/.."

results_dir="$(mktemp -d "${TMPDIR:-/tmp}/kindred-test-all-XXXXXX")"
e2e_data_dir="$(mktemp -d "${TMPDIR:-/tmp}/kindred-e2e-XXXXXX")"
trap 'rm -rf "$results_dir" "$e2e_data_dir"' EXIT

declare -a summary=()
failed_steps=0

run_step() {
  local name="$1"
  shift
  echo
  echo "=== ${name} ==="
  local started=$SECONDS
  if "$@"; then
    summary+=("PASS  ${name} ($((SECONDS - started))s)")
  else
    summary+=("FAIL  ${name} ($((SECONDS - started))s)")
    failed_steps=$((failed_steps + 1))
  fi
}

skip_step() {
  echo
  echo "=== $1 ==="
  echo "skipped: $2"
  summary+=("SKIP  $1 ($2)")
}

# logged NAME COMMAND...: runs the command with its output shown and kept in NAME.out; a failure
# leaves NAME.failed, so the summary can say why at the end.
logged() {
  local name="$1"
  shift
  "$@" 2>&1 | tee "$results_dir/${name}.out"
  local status=${PIPESTATUS[0]}
  [[ $status -ne 0 ]] && touch "$results_dir/${name}.failed"
  return "$status"
}

vitest_server_pglite() {
  env -u TEST_DATABASE_URL npx vitest run --project server \
    --reporter=default --reporter=json --outputFile.json="$results_dir/server-pglite.vitest.json"
}

vitest_server_postgres() {
  npx vitest run --project server \
    --reporter=default --reporter=json --outputFile.json="$results_dir/server-postgres.vitest.json"
}

vitest_multi_process() {
  npx vitest run --project multi-process \
    --reporter=default --reporter=json --outputFile.json="$results_dir/multi-process.vitest.json"
}

vitest_web() {
  npx vitest run --project web --passWithNoTests \
    --reporter=default --reporter=json --outputFile.json="$results_dir/web.vitest.json"
}

playwright_flows() {
  E2E_DATA_DIR="$e2e_data_dir" PLAYWRIGHT_JSON_OUTPUT_FILE="$results_dir/e2e.playwright.json" \
    PLAYWRIGHT_JSON_OUTPUT_NAME="$results_dir/e2e.playwright.json" \
    npx playwright test --reporter=list,json
}

# Three lanes at once, and a fourth once two are done:
# - the server suite on PGlite (shown as it runs);
# - the server suite on PostgreSQL, then the multi-process suite (they share the PostgreSQL server);
# - typecheck, the web component tests and the build, which share nothing with the others;
# - the browser flows, once the build is made and the PostgreSQL lane is done, beside the rest of
#   the PGlite suite (so no more than two heavy lanes share the 2 cores while they run).
# Each server suite runs its files one at a time (vitest's default on 2 cores), and a file spends
# about half its time waiting (on databases, child processes, timers and sockets). Side by side
# the lanes fill each other's waits: one after the other they took 52 minutes, side by side 45,
# with the browser flows overlapping too about 40.
# A background lane's output is shown when it is done.

# start_lane NAME FUNCTION: runs FUNCTION's steps in the background; its log and summary go to
# $results_dir/NAME.log and NAME.summary.
declare -a lane_names=()
declare -a lane_pids=()
start_lane() {
  local name="$1" steps="$2"
  (
    summary=()
    failed_steps=0
    "$steps"
    # Written whole, then renamed: the browser lane waits for these files to appear.
    printf '%s\n' "${summary[@]}" > "$results_dir/${name}.summary.partial"
    mv "$results_dir/${name}.summary.partial" "$results_dir/${name}.summary"
  ) > "$results_dir/${name}.log" 2>&1 &
  lane_names+=("$name")
  lane_pids+=($!)
}

side_lane() {
  run_step "typecheck (tsc --noEmit)" npx tsc --noEmit -p .
  run_step "web component tests" logged web vitest_web
  run_step "production build (npm run build)" npm run build
}

postgres_lane() {
  run_step "server suite on PostgreSQL (TEST_DATABASE_URL)" logged server-postgres vitest_server_postgres
  run_step "multi-process suite (two app processes, PostgreSQL, s3rver)" logged multi-process vitest_multi_process
}

# Waits until the lane has written its summary, or its process is gone without one.
await_lane() {
  local name="$1" pid="$2"
  while [[ ! -f "$results_dir/${name}.summary" ]] && kill -0 "$pid" 2> /dev/null; do sleep 2; done
}

browser_lane() {
  await_lane "side-lane" "$side_lane_pid"
  [[ -n "${postgres_lane_pid:-}" ]] && await_lane "postgres-lane" "$postgres_lane_pid"
  if ! grep -q '^PASS  production build' "$results_dir/side-lane.summary" 2> /dev/null; then
    skip_step "browser flows (Playwright, Chromium)" "the build failed"
  elif [[ ! -f dist/web/index.html ]]; then
    skip_step "browser flows (Playwright, Chromium)" "no web build in dist/web"
  else
    run_step "browser flows (Playwright, Chromium)" logged browser-flows playwright_flows
  fi
}

start_lane "side-lane" side_lane
side_lane_pid="${lane_pids[-1]}"
postgres_lane_pid=""
if [[ -n "${TEST_DATABASE_URL:-}" ]]; then
  start_lane "postgres-lane" postgres_lane
  postgres_lane_pid="${lane_pids[-1]}"
else
  skip_step "server suite on PostgreSQL" "TEST_DATABASE_URL is not set"
  skip_step "multi-process suite" "TEST_DATABASE_URL is not set"
fi
start_lane "browser-lane" browser_lane

run_step "server suite on PGlite" logged server-pglite vitest_server_pglite

for i in "${!lane_names[@]}"; do
  name="${lane_names[$i]}"
  wait "${lane_pids[$i]}"
  echo
  echo "=== ${name}, run beside the PGlite suite ==="
  cat "$results_dir/${name}.log"
  if [[ ! -f "$results_dir/${name}.summary" ]]; then
    summary+=("FAIL  ${name}: it ended without a summary")
    failed_steps=$((failed_steps + 1))
    continue
  fi
  while IFS= read -r line; do
    [[ -z "$line" ]] && continue
    summary+=("$line")
    [[ "$line" == FAIL* ]] && failed_steps=$((failed_steps + 1))
  done < "$results_dir/${name}.summary"
done

# Test counts over every runner, from their JSON reports.
counts="$(node -e '
const fs = require("fs"), path = require("path");
const dir = process.argv[1];
let passed = 0, failed = 0, skipped = 0;
for (const f of fs.readdirSync(dir)) {
  let r;
  try { r = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")); } catch { continue; }
  if (f.endsWith(".vitest.json")) {
    passed += r.numPassedTests ?? 0; failed += r.numFailedTests ?? 0;
    skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  } else if (r.stats) {
    passed += (r.stats.expected ?? 0) + (r.stats.flaky ?? 0); failed += r.stats.unexpected ?? 0; skipped += r.stats.skipped ?? 0;
  }
}
process.stdout.write(`${passed} passed, ${failed} failed, ${skipped} skipped`);
' "$results_dir" 2>/dev/null || echo "")"

echo
echo "=== summary ==="
printf '%s\n' "${summary[@]}"
[[ -n "$counts" ]] && echo "tests: ${counts}"
if [[ $failed_steps -gt 0 ]]; then
  # Why, where it can be read last: a CI service may keep only the end of the output, and the
  # failing step's own report scrolled by long before. Vitest ends with its "Failed Tests" and
  # "Unhandled Errors" sections (an unhandled error fails a run whose tests all passed);
  # Playwright ends with its list of failures.
  for marker in "$results_dir"/*.failed; do
    [[ -f "$marker" ]] || continue
    name="$(basename "$marker" .failed)"
    plain="$(sed 's/\x1b\[[0-9;]*m//g' "$results_dir/${name}.out")"
    echo
    echo "=== why ${name} failed ==="
    # From vitest's first failure section when there is one, else the end of the output.
    awk '/⎯⎯ (Failed Tests|Failed Suites|Unhandled Error)/ { found = 1 } found' <<< "$plain" | head -n 150 > "$results_dir/why.txt"
    if [[ -s "$results_dir/why.txt" ]]; then cat "$results_dir/why.txt"; else tail -n 80 <<< "$plain"; fi
  done
  echo
  echo "${failed_steps} step(s) failed"
  exit 1
fi
echo "all steps passed"
