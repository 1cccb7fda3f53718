#!/usr/bin/env python3
# run.py - runs the hostile suite: every tests/hostile/test_*.py module's
# run(binary, results) against the given sudokud binary, in name order, and
# ends with "hostile: N passed, N failed" (exit 1 on any failure).
# Usage: run.py BINARY [MODULE...]   (e.g. run.py build/sudokud framing)
import glob
import importlib
import os
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import hostile  # noqa: E402


def main(argv):
    if len(argv) < 2:
        print("usage: run.py BINARY [MODULE...]", file=sys.stderr)
        return 2
    binary = os.path.abspath(argv[1])
    only = set(argv[2:])
    results = hostile.Results()
    for path in sorted(glob.glob(os.path.join(HERE, "test_*.py"))):
        name = os.path.basename(path)[len("test_"):-len(".py")]
        if only and name not in only:
            continue
        print("== %s" % name, flush=True)
        module = importlib.import_module("test_" + name)
        try:
            module.run(binary, results)
        except Exception:  # a broken case is a failure, not the end
            results.case = name
            results.check(False, "raised", traceback.format_exc())
    return results.summary()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
