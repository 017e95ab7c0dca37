#!/usr/bin/env bash
# Every test Kindred has (`npm test`): the server suite on PGlite and (when TEST_DATABASE_URL is
# set) on PostgreSQL plus the multi-process suite, with typecheck, the web component tests and the
# production build running beside them; then the browser flows in Chromium. Every step runs even after one fails (so one run shows everything);
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

# Two lanes at once: the server suites (each its own databases) and, beside them, typecheck, the
# web component tests and the build, which share nothing with them. On 2 cores the server suites
# leave room (they wait on databases, child processes and timers), so the side lane costs them
# little and saves its whole length. The side lane's output is shown when it is done.
side_log="$results_dir/side-lane.log"
(
  summary=()
  failed_steps=0
  run_step "typecheck (tsc --noEmit)" npx tsc --noEmit -p .
  run_step "web component tests" vitest_web
  run_step "production build (npm run build)" npm run build
  printf '%s\n' "${summary[@]}" > "$results_dir/side-lane.summary"
) > "$side_log" 2>&1 &
side_pid=$!

run_step "server suite on PGlite" vitest_server_pglite
if [[ -n "${TEST_DATABASE_URL:-}" ]]; then
  run_step "server suite on PostgreSQL (TEST_DATABASE_URL)" vitest_server_postgres
  run_step "multi-process suite (two app processes, PostgreSQL, s3rver)" vitest_multi_process
else
  skip_step "server suite on PostgreSQL" "TEST_DATABASE_URL is not set"
  skip_step "multi-process suite" "TEST_DATABASE_URL is not set"
fi

wait "$side_pid"
echo
echo "=== side lane (typecheck, web component tests, build), run beside the server suites ==="
cat "$side_log"
build_ok=0
if [[ ! -f "$results_dir/side-lane.summary" ]]; then
  summary+=("FAIL  side lane (typecheck, web component tests, build): it ended without a summary")
  failed_steps=$((failed_steps + 1))
  touch "$results_dir/side-lane.summary"
fi
while IFS= read -r line; do
  [[ -z "$line" ]] && continue
  summary+=("$line")
  [[ "$line" == FAIL* ]] && failed_steps=$((failed_steps + 1))
  [[ "$line" == "PASS  production build"* ]] && build_ok=1
done < "$results_dir/side-lane.summary"
if [[ $build_ok -eq 0 ]]; then
  skip_step "browser flows (Playwright, Chromium)" "the build failed"
elif [[ ! -f dist/web/index.html ]]; then
  skip_step "browser flows (Playwright, Chromium)" "no web build in dist/web"
else
  run_step "browser flows (Playwright, Chromium)" playwright_flows
fi

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
  echo "${failed_steps} step(s) failed"
  exit 1
fi
echo "all steps passed"
