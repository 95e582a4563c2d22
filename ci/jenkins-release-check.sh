#!/usr/bin/env bash
# The check before a release: the freshly built aiperf.hpi in a started jenkins.war.
#
#   ci/jenkins-release-check.sh WAR PLUGINS_DIR HPI
#
# WAR          a jenkins.war (2.541.3 or newer)
# PLUGINS_DIR  a folder of <artifactId>.jpi (or .hpi) files: the plugins aiperf and Pipeline need
# HPI          jenkins-plugin/target/aiperf.hpi
#
# It starts Jenkins on 127.0.0.1 (a free port, a temporary JENKINS_HOME, no setup wizard, no update center), starts
# one inbound agent labelled 'bench' and the engine's mock server, and runs: a freestyle job with the AIPerf build
# step and a scripted Pipeline (each twice, so the second build gates against the first and the job has a trend), a
# declarative Pipeline on the agent, and a "pull request" job whose referenceJob is the scripted job. It asserts each
# build's result, the archived files, the build page (the AIPerf section), api/json of builds and jobs, and the trend
# on the job page. Every wait is bounded. It exits non-zero on the first failure and always stops what it started.
#
# Environment (optional):
#   AIPERF_JAR            the engine jar for the mock server (default: engine/target/aiperf.jar)
#   RELEASE_CHECK_KEEP=1  keep the temporary folder (its path is printed) for a look at the logs
#   RELEASE_CHECK_SCREENSHOTS=DIR  take PNGs of the build page and the job trend with headless chromium into DIR
#   RELEASE_CHECK_WAIT    seconds for each wait (default 300)
#   RELEASE_CHECK_ALLOW_NO_DECLARATIVE=1  pass without the declarative Pipeline when PLUGINS_DIR has no
#                         pipeline-model-definition (it is skipped either way; without this the check fails)
# Needs java (17+), curl, jq, python3, setsid; chromium only for the screenshots.
set -euo pipefail

if [ $# -ne 3 ]; then
    echo "usage: $0 WAR PLUGINS_DIR HPI" >&2
    exit 2
fi
WAR=$(realpath "$1")
PLUGINS=$(realpath "$2")
HPI=$(realpath "$3")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ENGINE_JAR=$(realpath "${AIPERF_JAR:-$ROOT/engine/target/aiperf.jar}")
WAIT=${RELEASE_CHECK_WAIT:-300}
for f in "$WAR" "$HPI" "$ENGINE_JAR"; do
    [ -f "$f" ] || { echo "FAIL: no file $f" >&2; exit 2; }
done
[ -d "$PLUGINS" ] || { echo "FAIL: no folder $PLUGINS" >&2; exit 2; }

TMP=$(mktemp -d -t aiperf-release-check.XXXXXX)
JENKINS_PID=""
AGENT_PID=""
MOCK_PID=""
SUMMARY=()

stop() { # the process group of a process this script started with setsid
    local pid=$1
    [ -n "$pid" ] || return 0
    kill -TERM -- "-$pid" 2>/dev/null || return 0
    for _ in $(seq 1 100); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
    kill -KILL -- "-$pid" 2>/dev/null || true
}
cleanup() {
    local rc=$?
    stop "$AGENT_PID"
    stop "$JENKINS_PID"
    stop "$MOCK_PID"
    if [ "${RELEASE_CHECK_KEEP:-}" = 1 ]; then
        echo "kept $TMP"
    else
        rm -rf "$TMP"
    fi
    exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fail() {
    echo "FAIL: $*" >&2
    [ -f "$TMP/jenkins.log" ] && { echo "--- last lines of the Jenkins log ---" >&2; tail -n 30 "$TMP/jenkins.log" >&2; }
    exit 1
}
ok() {
    SUMMARY+=("ok    $*")
    echo "ok    $*"
}
free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}
# until CMD succeeds, at most WAIT seconds, polling each half second
wait_for() {
    local what=$1
    shift
    local deadline=$((SECONDS + WAIT))
    until "$@" >/dev/null 2>&1; do
        [ $SECONDS -lt $deadline ] || fail "waited ${WAIT}s for $what"
        sleep 0.5
    done
}

# --- the engine's mock server ------------------------------------------------------------------------------------
MOCK_PORT=$(free_port)
setsid java -jar "$ENGINE_JAR" mock-server --host 127.0.0.1 -p "$MOCK_PORT" -t 5 --itl 1 >"$TMP/mock.log" 2>&1 &
MOCK_PID=$!
MOCK="http://127.0.0.1:$MOCK_PORT"
wait_for "the mock server on port $MOCK_PORT" curl -sf "$MOCK/v1/models"
ok "mock server at $MOCK"

# --- Jenkins -----------------------------------------------------------------------------------------------------
export JENKINS_HOME="$TMP/home"
mkdir -p "$JENKINS_HOME/plugins"
n=0
for p in "$PLUGINS"/*.jpi "$PLUGINS"/*.hpi; do
    [ -f "$p" ] || continue
    name=$(basename "$p")
    cp "$p" "$JENKINS_HOME/plugins/${name%.*}.jpi"
    n=$((n + 1))
done
[ $n -gt 0 ] || fail "no .jpi or .hpi in $PLUGINS"
cp "$HPI" "$JENKINS_HOME/plugins/aiperf.jpi"
DECLARATIVE=1
[ -f "$JENKINS_HOME/plugins/pipeline-model-definition.jpi" ] || DECLARATIVE=0

PORT=$(free_port)
JENKINS="http://127.0.0.1:$PORT"
setsid java -Djenkins.install.runSetupWizard=false \
    -Dhudson.model.UpdateCenter.never=true -Dhudson.model.DownloadService.never=true \
    -jar "$WAR" --httpPort="$PORT" --httpListenAddress=127.0.0.1 >"$TMP/jenkins.log" 2>&1 &
JENKINS_PID=$!
up() { kill -0 "$JENKINS_PID" && grep -q "Jenkins is fully up and running" "$TMP/jenkins.log"; }
wait_for "Jenkins to be fully up (log: $TMP/jenkins.log)" up
version=$(curl -sfI "$JENKINS/" | tr -d '\r' | awk -F': ' 'tolower($1)=="x-jenkins"{print $2}')
ok "Jenkins $version at $JENKINS with $n plugins and aiperf.hpi"

# GET/POST with the session cookie and, for POST, the crumb
CURL=(curl -sS --max-time "$WAIT" -b "$TMP/cookies" -c "$TMP/cookies")
crumb=$("${CURL[@]}" -f "$JENKINS/crumbIssuer/api/json" | jq -r '.crumbRequestField + ":" + .crumb')
get() { "${CURL[@]}" -f "$JENKINS/$1"; }
# runs a Groovy script in the script console and prints what it printed
groovy() {
    "${CURL[@]}" -f -H "$crumb" --data-urlencode "script=$1" "$JENKINS/scriptText"
}

plugins=$(groovy 'def pm = Jenkins.get().pluginManager
def a = pm.getPlugin("aiperf")
println(a != null && a.active ? "aiperf-active " + a.version : "aiperf-missing")
pm.failedPlugins.each { println "failed " + it.name + ": " + it.cause }')
grep -q '^aiperf-active' <<<"$plugins" || fail "aiperf is not active: $plugins"
grep -q '^failed' <<<"$plugins" && fail "plugins failed to load: $plugins"
ok "aiperf plugin active ($(grep '^aiperf-active' <<<"$plugins" | cut -d' ' -f2)), no plugin failed to load"

# --- an inbound agent labelled 'bench' ---------------------------------------------------------------------------
mkdir -p "$TMP/agent"
secret=$(groovy "import hudson.slaves.*
def agent = new DumbSlave('bench-agent', '$TMP/agent', new JNLPLauncher())
agent.labelString = 'bench'
agent.numExecutors = 2
agent.retentionStrategy = RetentionStrategy.Always.newInstance()
Jenkins.get().addNode(agent)
println agent.computer.jnlpMac")
[ -n "$secret" ] || fail "no agent secret"
get jnlpJars/agent.jar >"$TMP/agent.jar"
setsid java -jar "$TMP/agent.jar" -url "$JENKINS/" -name bench-agent -secret "$secret" -webSocket \
    -workDir "$TMP/agent" >"$TMP/agent.log" 2>&1 &
AGENT_PID=$!
agent_online() { get computer/bench-agent/api/json | jq -e '.offline == false'; }
wait_for "the agent to connect (log: $TMP/agent.log)" agent_online
ok "agent bench-agent (label bench) online"

# --- jobs ----------------------------------------------------------------------------------------------------------
# Absolute limits the mock meets (TTFT 5 ms) and a relative rule, which is inactive without a baseline.
GATE='rules:
  - {metric: time_to_first_token, stat: p50, max: 1000, criticality: failure}
  - {metric: request_throughput, stat: avg, max_decrease_pct: 95, criticality: unstable}'
# One user and a short warmup: on a machine short of CPU a wait for a second connection can make the engine call
# the run invalid (pool_wait), and an invalid run makes the gate inconclusive, so the build UNSTABLE.
LOAD="model: 'mock-model', urls: ['$MOCK'], streaming: true, requestCount: 8, concurrency: 1, warmupRequestCount: 4,
      extraArgs: ['--isl', '8', '--osl', '4', '--tokenizer', 'builtin'], gate: 'gate.yaml', skipPublishingChecks: true"

create_pipeline() { # name, script (sandboxed; handed over in base64, so it may hold any quotes)
    groovy "import org.jenkinsci.plugins.workflow.job.WorkflowJob
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition
def j = Jenkins.get().createProject(WorkflowJob, '$1')
j.definition = new CpsFlowDefinition(new String('$(base64 -w0 <<<"$2")'.decodeBase64(), 'UTF-8'), true)
j.save()
println 'created'" | grep -q created || fail "cannot create job $1"
}

groovy "import hudson.model.FreeStyleProject
import hudson.tasks.Shell
import io.aiperf.jenkins.AiperfProfileBuilder
def p = Jenkins.get().createProject(FreeStyleProject, 'freestyle')
p.buildersList.add(new Shell('''cat > gate.yaml <<'EOF'
$GATE
EOF'''))
def b = new AiperfProfileBuilder()
b.model = 'mock-model'
b.urls = ['$MOCK']
b.streaming = true
b.requestCount = 8
b.concurrency = 1
b.warmupRequestCount = 4
b.extraArgs = ['--isl', '8', '--osl', '4', '--tokenizer', 'builtin']
b.gate = 'gate.yaml'
b.skipPublishingChecks = true
p.buildersList.add(b)
p.save()
println 'created'" | grep -q created || fail "cannot create the freestyle job"

create_pipeline scripted "node('bench') {
    writeFile file: 'gate.yaml', text: '''$GATE'''
    def r = aiperfProfile($LOAD)
    echo \"scripted: gate \${r.gate}, verdict \${r.verdict}, TTFT p50 \${r.metrics.time_to_first_token_p50} ms\"
    if (r.gate != 'passed') { error(\"gate \${r.gate}\") }
}"

if [ $DECLARATIVE = 1 ]; then
    create_pipeline declarative "pipeline {
    agent { label 'bench' }
    stages {
        stage('Benchmark') {
            steps {
                writeFile file: 'gate.yaml', text: '''$GATE'''
                script {
                    def r = aiperfProfile($LOAD)
                    echo \"declarative: gate \${r.gate}, verdict \${r.verdict}\"
                }
            }
        }
    }
}"
fi

# The pull request: its own first build, gated against the target job's last build.
create_pipeline pr "node('bench') {
    writeFile file: 'gate.yaml', text: '''$GATE'''
    def r = aiperfProfile($LOAD, referenceJob: 'scripted')
    echo \"pr: gate \${r.gate}, baselines \${r.baselineBuilds}\"
}"
ok "jobs created: freestyle, scripted, $([ $DECLARATIVE = 1 ] && echo 'declarative, ')pr"

# --- builds and what they must show --------------------------------------------------------------------------------
run_build() { # job, expected number: schedules a build, waits for it to finish, asserts SUCCESS
    local job=$1 number=$2 result
    "${CURL[@]}" -f -X POST -H "$crumb" "$JENKINS/job/$job/build?delay=0sec" -o /dev/null || fail "cannot start $job"
    finished() { get "job/$job/$number/api/json?tree=building,result" | jq -e '.building == false and .result != null'; }
    wait_for "$job #$number to finish" finished
    get "job/$job/$number/consoleText" >"$TMP/$job-$number.log"
    result=$(get "job/$job/$number/api/json?tree=result" | jq -r .result)
    if [ "$result" != SUCCESS ]; then
        tail -n 40 "$TMP/$job-$number.log" >&2
        fail "$job #$number: $result, not SUCCESS"
    fi
}
check_build() { # job, number: the archive, the AIPerf section and page, api/json of the build
    local job=$1 number=$2 b="job/$1/$2" json page
    json=$(get "$b/api/json?depth=1")
    for f in aiperf/aiperf/run/profile_export.jsonl aiperf/aiperf/run/profile_export_aiperf.json \
        aiperf/aiperf/run/comparison.svg; do
        jq -e --arg f "$f" '[.artifacts[].relativePath] | index($f) != null' <<<"$json" >/dev/null \
            || fail "$job #$number did not archive $f (archived: $(jq -c '[.artifacts[].relativePath]' <<<"$json"))"
    done
    get "$b/artifact/aiperf/aiperf/run/profile_export.jsonl" >"$TMP/export.jsonl"
    [ "$(wc -l <"$TMP/export.jsonl")" -eq 8 ] && jq -e . "$TMP/export.jsonl" >/dev/null \
        || fail "$job #$number: the archived profile_export.jsonl is not 8 JSON records"
    jq -e '.actions[] | select(._class == "io.aiperf.jenkins.AiperfBuildAction")
           | .verdict == "SUCCESS" and .ids == ["aiperf"] and (.calls | has("aiperf/aiperf/run/"))' <<<"$json" >/dev/null \
        || fail "$job #$number: api/json has no AIPerf action with verdict SUCCESS and id aiperf"
    page=$(get "$b/")
    grep -q 'aiperf/' <<<"$page" || fail "$job #$number: the build page links to no AIPerf page"
    page=$(get "$b/aiperf/")
    for want in 'time_to_first_token' 'SUCCESS' 'profile_export.jsonl'; do
        grep -q "$want" <<<"$page" || fail "$job #$number: the AIPerf page shows no '$want'"
    done
    page=$(get "$b/aiperf/compare?call=aiperf%2Faiperf%2Frun%2F")
    grep -q '<svg' <<<"$page" \
        || fail "$job #$number: the comparison image is no SVG"
    ok "$job #$number on $(grep -o -m1 -E 'Running on [^ ]+|Building on the built-in node' "$TMP/$job-$number.log" | sed 's/Running on //; s/Building on the //'): SUCCESS, archived, build page and AIPerf page, api/json verdict SUCCESS"
}
check_trend() { # job, builds expected on the trend (the job page draws one from two builds on)
    local job=$1 count=$2 svg
    get "job/$job/" >"$TMP/job-$job.html"
    grep -q "aiperf-trend/trend?id=aiperf" "$TMP/job-$job.html" || fail "$job: the job page shows no AIPerf trend"
    svg=$(get "job/$job/aiperf-trend/trend?id=aiperf")
    grep -q '<svg' <<<"$svg" || fail "$job: the trend is no SVG"
    for i in $(seq 1 "$count"); do
        grep -q "$job/$i/aiperf/" <<<"$svg" || fail "$job: the trend has no point linking to build #$i"
    done
    get "job/$job/api/json?depth=1" | jq -e '.healthReport | map(.description) | any(test("AIPerf|benchmark"; "i"))' \
        >/dev/null || fail "$job: api/json of the job has no AIPerf health report"
    ok "$job: job page trend with $count build(s), job api/json health report"
}

run_build freestyle 1
check_build freestyle 1
run_build freestyle 2
check_build freestyle 2
grep -q 'aiperf: baseline: build #1' "$TMP/freestyle-2.log" || fail "freestyle #2 did not gate against #1"
check_trend freestyle 2

run_build scripted 1
check_build scripted 1
grep -q 'scripted: gate passed' "$TMP/scripted-1.log" || fail "scripted #1: the returned map says no gate passed"
grep -q 'Running on bench-agent' "$TMP/scripted-1.log" || fail "scripted #1 did not run on the agent"
run_build scripted 2
check_build scripted 2
grep -q 'aiperf: baseline: build #1' "$TMP/scripted-2.log" \
    || fail "scripted #2 did not gate against #1: $(grep -i baseline "$TMP/scripted-2.log" | head -n 3)"
get job/scripted/2/api/json?depth=1 | jq -e '[.actions[] | select(._class == "io.aiperf.jenkins.AiperfBuildAction")
    | .calls["aiperf/aiperf/run/"].comparison[]?] | length > 0' >/dev/null \
    || fail "scripted #2: api/json has no comparison with its baseline"
ok "scripted #2 gated against scripted #1 (comparison in api/json)"
check_trend scripted 2

if [ $DECLARATIVE = 1 ]; then
    run_build declarative 1
    check_build declarative 1
    grep -q 'Running on bench-agent' "$TMP/declarative-1.log" || fail "declarative #1 did not run on the agent"
    ok "declarative #1 ran on bench-agent"
else
    SUMMARY+=("SKIP  declarative Pipeline: pipeline-model-definition.jpi is not in $PLUGINS")
    echo "SKIP  declarative Pipeline: pipeline-model-definition.jpi is not in $PLUGINS" >&2
fi

run_build pr 1
check_build pr 1
grep -q 'aiperf: baseline: scripted #2' "$TMP/pr-1.log" \
    || fail "pr #1 did not gate against the target's last build scripted #2: $(grep -i baseline "$TMP/pr-1.log" | head -n 3)"
grep -q 'Running on bench-agent' "$TMP/pr-1.log" || fail "pr #1 did not run on the agent"
get job/pr/1/api/json?depth=1 | jq -e '.actions[] | select(._class == "io.aiperf.jenkins.AiperfBuildAction")
    | .calls["aiperf/aiperf/run/"] | .baselineJob == "scripted" and .baselineBuilds == [2] and .gate == "passed"
      and (.comparison | length > 0)' >/dev/null \
    || fail "pr #1: api/json does not say baselineJob scripted, baselineBuilds [2], gate passed, with a comparison"
ok "pr #1 (referenceJob: 'scripted') gated against scripted #2, the target's last build"

# --- pictures (optional) ---------------------------------------------------------------------------------------------
if [ -n "${RELEASE_CHECK_SCREENSHOTS:-}" ]; then
    mkdir -p "$RELEASE_CHECK_SCREENSHOTS"
    shot() { # url, file, width,height (the window is the picture: only its top is taken)
        timeout "$WAIT" chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
            --disable-component-update --disable-sync --no-first-run --user-data-dir="$TMP/chromium-$2" \
            --hide-scrollbars --virtual-time-budget=10000 --window-size="$3" \
            --screenshot="$RELEASE_CHECK_SCREENSHOTS/$2" "$1" >"$TMP/chromium.log" 2>&1 \
            || fail "chromium could not take $2 (see $TMP/chromium.log)"
    }
    shot "$JENKINS/job/scripted/2/aiperf/" jenkins-build-page.png 1440,1150
    shot "$JENKINS/job/scripted/" jenkins-job-trend.png 1280,700
    ok "screenshots in $RELEASE_CHECK_SCREENSHOTS"
fi

if grep -q SEVERE "$TMP/jenkins.log"; then
    grep SEVERE "$TMP/jenkins.log" | head -n 5 >&2
    fail "SEVERE in the Jenkins log"
fi
ok "no SEVERE in the Jenkins log"

passed=$(printf '%s\n' "${SUMMARY[@]}" | grep -c '^ok')
skipped=$(printf '%s\n' "${SUMMARY[@]}" | grep -c '^SKIP' || true)
echo
echo "== release check of $(basename "$HPI") in Jenkins $version: $passed checks passed, $skipped skipped =="
printf '%s\n' "${SUMMARY[@]}" | grep '^SKIP' || true
if [ $DECLARATIVE = 0 ] && [ "${RELEASE_CHECK_ALLOW_NO_DECLARATIVE:-}" != 1 ]; then
    echo "FAIL: the declarative Pipeline was not run (set RELEASE_CHECK_ALLOW_NO_DECLARATIVE=1 to accept that)" >&2
    exit 1
fi
