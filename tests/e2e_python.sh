#!/bin/sh
# The Python module over liboxo (lookup/python/oxo.py) under pytest, against this build's liboxo:
# e2e_python.sh BUILD SRC. Debian's python3-pytest (make test installs it); the interpreter is the
# first python3 on the PATH that has pytest, else Debian's own.
BUILD=$1
SRC=$2
for py in python3 /usr/bin/python3; do
    if "$py" -c 'import pytest' 2>/dev/null; then
        exec env OXO_LIBRARY="$BUILD/liboxo.so.0" OXO_DATA_DIR="$SRC/data" OXO_GEN="$BUILD/oxo-gen" \
            OXO_TRAIN="$BUILD/oxo-train" \
            PYTHONPATH="$SRC/lookup/python" \
            PYTHONDONTWRITEBYTECODE=1 "$py" -m pytest -q -p no:cacheprovider "$SRC/tests/python"
    fi
done
echo "FAIL: no python3 with pytest (apt-get install python3-pytest)"
exit 1
