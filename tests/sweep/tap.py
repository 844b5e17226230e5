"""Runs a unittest module's tests printing TAP ("ok N - name"), which
scripts/run_tests.sh counts one by one."""
import sys
import time
import unittest


class TapResult(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.n, self.t0 = 0, 0.0

    def startTest(self, test):
        super().startTest(test)
        self.t0 = time.monotonic()

    def _line(self, ok, test, info=""):
        self.n += 1
        name = getattr(test, "_testMethodName", str(test))
        print(f"{'ok' if ok else 'not ok'} {self.n} - {name} ({time.monotonic() - self.t0:.1f} s)", flush=True)
        for line in info.rstrip().splitlines():
            print(f"# {line}")

    def addSuccess(self, test):
        self._line(True, test)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._line(False, test, self._exc_info_to_string(err, test))

    def addError(self, test, err):
        super().addError(test, err)
        self._line(False, test, self._exc_info_to_string(err, test))

    def addSkip(self, test, reason):
        self._line(True, test, f"skipped: {reason}")


def main(module):
    suite = unittest.defaultTestLoader.loadTestsFromModule(module)
    print(f"1..{suite.countTestCases()}", flush=True)
    r = TapResult()
    suite.run(r)
    sys.exit(0 if r.wasSuccessful() else 1)
