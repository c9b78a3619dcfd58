#!/usr/bin/env bash
# The package as a user meets it (run by .ci/run, after `npm ci`): pack it; install the tarball
# into an empty folder from the npm cache alone (no network); there run `-help`, `demo` and a real
# restart against `nomad-restart sim`; synthesize a user's CDK app (TypeScript through tsx, and
# the same code as CommonJS JavaScript) against the installed constructs and compare its template
# with the same app run in this repository; install it globally into a temporary prefix made
# read-only and run it from elsewhere, checking nothing is written into the package and its
# cache lands under XDG_CACHE_HOME, and that a cache folder it cannot write costs one warning line.
# Fails when the tarball outgrows its budgets (below), or when the declarations do not type-check
# in a CDK app as `cdk init` writes it, without skipLibCheck. Prints the tarball's size and file
# count and each step's time.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
WORK=$(mktemp -d "${TMPDIR:-/tmp}/nomad-restart-package.XXXXXX")
SIM_PID=
cleanup() {
  if [ -n "$SIM_PID" ]; then kill "$SIM_PID" 2>/dev/null || true; fi
  chmod -R u+w "$WORK" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
export CDK_DISABLE_CLI_TELEMETRY=true XDG_CACHE_HOME="$WORK/cache"
OFFLINE=(--offline --no-audit --no-fund)
# What the tarball may weigh and hold. Handlers with the AWS SDK left to the runtime came to about
# 4.4 MB packed, 16 MB unpacked, 144 files; handlers that bundle the SDK add about 9 MB packed and
# 40 MB unpacked. With the fleet's two handlers and its declarations (2026-12-07): 14.4 MB packed,
# 58 MB unpacked, 183 files; before the run history and metrics (#40, at 54aafd6): 15,721 KB
# packed, 64,384 KB unpacked, 196 files. #40 made it 16,926 KB, 68,493 KB and 205 files: a 21st
# handler, `end-fleet-record` (1.10 MB of code and 1.87 MB of map: the step kit and the AWS SDK
# it shares with the others), and in every handler Powertools Metrics and the history's writes
# (lock-job: 1,064 KB of code and 1,842 KB of map before, 1,100 KB and 1,870 KB after); seven
# declarations (the dashboard, the run metrics, the metric names, a run's outcome, reason and
# events). The budgets are that plus about 5%. A budget this size still fails on what once
# slipped in: a handler carrying the CDK (85 MB), or sources and tests. #41 (a faster build, the
# same dist/ but for the command's bundle): 16,929 KB, 68,499 KB and 205 files, budgets unchanged.
MAX_PACKED_KB=17920
MAX_UNPACKED_KB=71680
MAX_FILES=212

started=$(date +%s%N)
step() { printf '%6.1f s  %s\n' "$(( ($(date +%s%N) - started) / 1000000 ))e-3" "$*"; }
# Runs a command with its output kept aside, shown only when it fails.
quiet() { "$@" >"$WORK/step.log" 2>&1 || { cat "$WORK/step.log"; exit 1; }; }

# A simulator on a free port; sets SIM_PID and NOMAD_ADDR.
start_sim() {
  "$@" sim -port 0 >"$WORK/sim.log" 2>&1 &
  SIM_PID=$!
  for _ in $(seq 100); do
    NOMAD_ADDR=$(sed -n 's/^Nomad simulator listening on //p' "$WORK/sim.log")
    [ -n "$NOMAD_ADDR" ] && export NOMAD_ADDR && return
    sleep 0.1
  done
  cat "$WORK/sim.log"
  exit 1
}
stop_sim() { kill "$SIM_PID" && wait "$SIM_PID" 2>/dev/null || true; SIM_PID=; }

# 1. Pack: `prepack` builds dist/.
quiet npm pack --pack-destination "$WORK"
TARBALL=$(echo "$WORK"/nomad-restart-*.tgz)
PACKED_KB=$(( $(stat -c %s "$TARBALL") / 1024 ))
UNPACKED_KB=$(tar tzvf "$TARBALL" | awk '{ sum += $3 } END { print int(sum / 1024) }')
FILES=$(tar tzf "$TARBALL" | grep -vc '/$')
step "packed $(basename "$TARBALL"): $PACKED_KB KB ($UNPACKED_KB KB unpacked), $FILES files"
if [ "$PACKED_KB" -gt "$MAX_PACKED_KB" ] || [ "$UNPACKED_KB" -gt "$MAX_UNPACKED_KB" ] || [ "$FILES" -gt "$MAX_FILES" ]; then
  echo "the tarball is over budget: at most $MAX_PACKED_KB KB packed, $MAX_UNPACKED_KB KB unpacked, $MAX_FILES files" >&2
  tar tzvf "$TARBALL" | sort -k3 -rn | head -5 >&2
  exit 1
fi
if tar tzf "$TARBALL" | grep -E '^package/(test|bench|lambdas|lib|scripts)/|[^.][^d]\.ts$'; then
  echo 'the tarball carries sources or tests (above)' >&2
  exit 1
fi

# 2. An operator's install into an empty folder.
mkdir "$WORK/operator" && cd "$WORK/operator"
npm init -y >/dev/null
quiet npm install "${OFFLINE[@]}" "$TARBALL"
step "installed into an empty folder from the npm cache"
quiet npx nomad-restart -help
grep -q '^Usage: nomad-restart' "$WORK/step.log"
step "npx nomad-restart -help"
quiet npx nomad-restart demo
grep -q 'Job restarted successfully!' "$WORK/step.log"
step "npx nomad-restart demo"
# The simulator through the installed bin itself, so that its pid is the one to stop.
start_sim node_modules/.bin/nomad-restart
quiet npx nomad-restart -batch-size 2 -yes example
grep -q 'Job restarted successfully!' "$WORK/step.log"
stop_sim
step "npx nomad-restart -batch-size 2 -yes example, against nomad-restart sim"

# 3. A CDK user's app against the installed constructs, and the same app in this repository.
node -e "const fs = require('fs'); const app = fs.readFileSync(process.argv[1], 'utf8');
  if (!fs.readFileSync(process.argv[2], 'utf8').includes(app.slice(app.indexOf('\nimport ') + 1))) {
    console.error('README, Install, does not show scripts/package-check/consumer-app.ts'); process.exit(1);
  }" "$ROOT/scripts/package-check/consumer-app.ts" "$ROOT/README.md"
mkdir "$WORK/cdk-app" && cd "$WORK/cdk-app"
npm init -y >/dev/null
quiet npm install "${OFFLINE[@]}" "$TARBALL"
# The CDK, tsx and the types `cdk init` installs at the versions this repository locks, through a
# lock file (see lock-from-repo.mjs).
node "$ROOT/scripts/package-check/lock-from-repo.mjs" "$ROOT/package-lock.json" \
  aws-cdk-lib constructs tsx @types/node @types/jest
quiet npm ci "${OFFLINE[@]}"
step "installed the package, aws-cdk-lib, constructs, tsx and @types into a CDK app from the npm cache"
cp "$ROOT/scripts/package-check/consumer-app.ts" app.ts
sed -E "s/^import \{ (.*) \} from '(.*)';$/const { \1 } = require('\2');/" app.ts >app.cjs
quiet env CDK_OUTDIR="$WORK/out-ts" npx tsx app.ts
step "synthesized the TypeScript app (tsx)"
# Its types, under the tsconfig.json `cdk init app --language typescript` writes (the template of
# the aws-cdk CLI this repository locks) with skipLibCheck off, so that the package's declarations
# are checked too, with an input they must refuse.
node "$ROOT/scripts/package-check/cdk-init-tsconfig.mjs" \
  "$ROOT/node_modules/aws-cdk/lib/init-templates/app/typescript/tsconfig.json" app.ts wrong.ts >tsconfig.json
cat >wrong.ts <<'TS'
import type { NomadRestartScheduleProps } from 'nomad-restart';
// @ts-expect-error: a job is named by a string
export const wrong: NomadRestartScheduleProps['input'] = { job: 1 };
TS
quiet node "$ROOT/node_modules/typescript/bin/tsc" -p .
step "type-checked it and the declarations (tsc, cdk init's tsconfig, no skipLibCheck)"
quiet env CDK_OUTDIR="$WORK/out-js" node app.cjs
step "synthesized the same app as CommonJS JavaScript"
mkdir -p "$ROOT/.nomad-restart/package-check"
IN_REPO="$ROOT/.nomad-restart/package-check/app.ts"
sed "s#from 'nomad-restart'#from '$ROOT/lib/constructs/index'#" app.ts >"$IN_REPO"
(cd "$ROOT" && quiet env CDK_OUTDIR="$WORK/out-repo" npx tsx "$IN_REPO")
step "synthesized the same app in the repository (handlers bundled by NodejsFunction)"
node "$ROOT/scripts/package-check/compare-templates.mjs" "$WORK/out-repo" "$WORK/out-ts" "$WORK/out-js"

# 4. A global install into a prefix the command then cannot write to, run from another folder.
quiet npm install -g "${OFFLINE[@]}" --prefix "$WORK/global" "$TARBALL"
PACKAGE_DIR="$WORK/global/lib/node_modules/nomad-restart"
chmod -R a-w "$PACKAGE_DIR"
listing() { (cd "$PACKAGE_DIR" && find . -printf '%p %s %T@\n' | sort); }
listing >"$WORK/before.txt"
step "installed globally into a temporary prefix, made read-only"
mkdir "$WORK/elsewhere" && cd "$WORK/elsewhere"
rm -rf "$XDG_CACHE_HOME"
quiet "$WORK/global/bin/nomad-restart" -help
start_sim "$WORK/global/bin/nomad-restart"
quiet "$WORK/global/bin/nomad-restart" -yes example
grep -q 'Job restarted successfully!' "$WORK/step.log"
stop_sim
listing >"$WORK/after.txt"
diff "$WORK/before.txt" "$WORK/after.txt" || { echo 'the command wrote into its install folder (above)' >&2; exit 1; }
ls "$XDG_CACHE_HOME"/nomad-restart/*.v8-cache >/dev/null
step "ran from $(basename "$PWD")/ as $(id -un): nothing written into the package, its cache under XDG_CACHE_HOME"
# A cache folder the installed command cannot write to (mkdir under /proc never succeeds, even as
# root): one warning line, and the run ends as it would have, with no hang and no stack trace.
quiet env XDG_CACHE_HOME=/proc/nomad-restart-cache timeout 60 "$WORK/global/bin/nomad-restart" -help
grep -q '^Usage: nomad-restart' "$WORK/step.log"
[ "$(grep -c '^nomad-restart: warning: compiled code not kept' "$WORK/step.log")" = 1 ]
if grep -q '^    at ' "$WORK/step.log"; then cat "$WORK/step.log"; exit 1; fi
step "ran with XDG_CACHE_HOME under /proc: one warning line, the command's own output and exit code"
