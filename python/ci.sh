#!/usr/bin/env bash
# Builds the Python package's wheel (maturin, release) in a fresh virtual environment, installs
# it there and runs its tests; prints the wheel's size. The SDK comparison tests need
# a2ui-agent-sdk 0.9.0 from PyPI and skip without it.
#
#     bash python/ci.sh        (from anywhere; VENV=/path overrides the environment's place)
set -euo pipefail
cd "$(dirname "$0")"

VENV="${VENV:-$(mktemp -d -t a2ui-stream-venv.XXXXXX)}"
python3 -m venv "$VENV"
PY="$VENV/bin/python"
"$PY" -m pip install -q --upgrade pip
"$PY" -m pip install -q maturin pytest pyyaml
if ! "$PY" -m pip install -q "a2ui-agent-sdk==0.9.0"; then
    echo "a2ui-agent-sdk 0.9.0 could not be installed: the SDK comparison tests will skip"
fi

rm -rf dist
"$VENV/bin/maturin" build --release --out dist
wheel="$(ls dist/a2ui_stream-*.whl)"
"$PY" -m pip install -q --force-reinstall --no-deps "$wheel"

# The tests import the installed wheel, not the source folder.
(cd tests && "$PY" -m pytest -q -p no:cacheprovider --rootdir . .)

printf 'wheel: %s, %s bytes (%s KiB)\n' "$(basename "$wheel")" "$(stat -c %s "$wheel")" \
    "$(( $(stat -c %s "$wheel") / 1024 ))"
