#!/usr/bin/env bash
# Installs upstream AIPerf, pinned, into a virtual environment of its own, outside the repository.
# It is a peer tool for bench/parity/ only: nothing of it is copied into this repository.
#
#   bench/upstream/install.sh            # venv in ${AIPERF_UPSTREAM_VENV:-$HOME/.cache/aiperf-upstream}
#   AIPERF_UPSTREAM_VENV=/some/dir bench/upstream/install.sh
#
# Prints the venv's path on its last line. Running it again is quick when the pinned version is already there.
set -euo pipefail

VERSION="${AIPERF_UPSTREAM_VERSION:-0.13.0}"
VENV="${AIPERF_UPSTREAM_VENV:-$HOME/.cache/aiperf-upstream}"
PY="${AIPERF_UPSTREAM_PYTHON:-}"

if [[ -z "$PY" ]]; then
  for cand in python3.11 python3; do
    if command -v "$cand" >/dev/null 2>&1 && "$cand" -c 'import sys; sys.exit(0 if sys.version_info[:2] >= (3, 10) else 1)'; then
      PY="$cand"; break
    fi
  done
fi
[[ -n "$PY" ]] || { echo "install.sh: no Python >= 3.10 found (set AIPERF_UPSTREAM_PYTHON)" >&2; exit 1; }

if [[ -x "$VENV/bin/python" ]] && "$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(0 if m.version('aiperf') == '$VERSION' else 1)" 2>/dev/null; then
  echo "aiperf $VERSION already installed" >&2
  echo "$VENV"
  exit 0
fi

mkdir -p "$(dirname "$VENV")"
"$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip >&2
"$VENV/bin/python" -m pip install -q "aiperf==$VERSION" >&2
"$VENV/bin/python" -c "import importlib.metadata as m; print('aiperf', m.version('aiperf'), 'installed', file=__import__('sys').stderr)"
echo "$VENV"
