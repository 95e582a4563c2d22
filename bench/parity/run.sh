#!/usr/bin/env bash
# The differential harness in one command: installs upstream AIPerf 0.13.0 (bench/upstream/install.sh) if needed,
# builds aiperf-java once, and runs bench/parity/parity.py (arguments pass through, e.g. --only NAME --servers mock).
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV="$(bench/upstream/install.sh | tail -1)"
if [[ -z "${PARITY_SKIP_BUILD:-}" ]]; then
  mvn -B -q -pl engine package -DskipTests -Dmaven.gitcommitid.skip=true -Djacoco.skip=true
fi
exec python3 bench/parity/parity.py --venv "$VENV" "$@"
