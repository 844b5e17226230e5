#!/usr/bin/env python3
"""Provenance of the generated tables (scripts/provenance.py, docs/RESULTS.md
"Provenance"): the sources fingerprint of a tree and of a commit agree and
see only the simulation's files; the doc check passes a table from this
tree's sources or one marked stale, and fails an unmarked stale table, a
marked fresh one and one that names no sources; and docs/RESULTS.md itself
passes.  TAP output (tests/sweep/tap.py)."""
import contextlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "sweep"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import tap  # noqa: E402
import provenance  # noqa: E402

TOOL = os.path.join(ROOT, "scripts", "provenance.py")


def table(name, body):
    return f"text\n<!-- BEGIN generated: {name} -->\n| a |\n|---|\n| 1 |\n\n{body}\n<!-- END generated: {name} -->\n"


class ProvenanceTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="fg-prov-test.")
        self.git("init", "-q")
        for d in ("sim", "rtl", "sw", "configs", "tests"):
            os.makedirs(os.path.join(self.tmp, d))
            self.write(f"{d}/a.txt", d)
        self.c1 = self.commit("one")
        self.saved_root, provenance.ROOT = provenance.ROOT, self.tmp

    def tearDown(self):
        provenance.ROOT = self.saved_root
        shutil.rmtree(self.tmp, ignore_errors=True)

    def git(self, *args):
        return subprocess.run(["git", "-C", self.tmp, "-c", "user.name=t", "-c", "user.email=t@t", *args],
                              check=True, capture_output=True, text=True).stdout.strip()

    def write(self, rel, text):
        with open(os.path.join(self.tmp, rel), "w") as f:
            f.write(text)

    def commit(self, msg):
        self.git("add", "-A")
        self.git("commit", "-q", "-m", msg)
        return self.git("rev-parse", "--short=7", "HEAD")

    def check(self, doc_text):
        doc = os.path.join(self.tmp, "RESULTS.md")
        self.write("RESULTS.md", doc_text)
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            rc = provenance.cmd_check(doc)
        return rc, out.getvalue()

    def test_fingerprint_of_tree_and_commit_agree(self):
        fp = provenance.fingerprint()
        self.assertEqual(fp, provenance.fingerprint("HEAD"))
        self.write("tests/a.txt", "changed")  # not a source of the simulation
        self.assertEqual(provenance.fingerprint(), fp)
        self.write("sim/a.txt", "changed")
        self.assertNotEqual(provenance.fingerprint(), fp)
        c2 = self.commit("two")
        self.assertEqual(provenance.fingerprint(), provenance.fingerprint("HEAD"))
        self.assertEqual(provenance.resolve_commit(provenance.short(fp)), self.c1)
        self.write("tests/a.txt", "again")
        self.commit("three: tests only")  # the source state is still the one c2 made
        self.assertEqual(provenance.resolve_commit(provenance.short(provenance.fingerprint())), c2)

    def test_excluded_rtl_is_not_a_source(self):
        fp = provenance.fingerprint()
        os.makedirs(os.path.join(self.tmp, "rtl", "simt"))
        self.write("rtl/simt/core.sv", "module m; endmodule")  # no program runs it
        self.assertEqual(provenance.fingerprint(), fp)
        self.commit("rtl/simt only")
        self.assertEqual(provenance.fingerprint("HEAD"), fp)
        self.assertEqual(provenance.resolve_commit(provenance.short(fp)), self.c1)
        self.write("rtl/a.txt", "changed")  # the rest of rtl/ is
        self.assertNotEqual(provenance.fingerprint(), fp)

    def test_excluded_rtl_feeds_no_program(self):
        """What the fingerprint leaves out must shape no result: no verilated block of the
        programs (mk/blocks.mk, generated from the block manifests) takes a file from there."""
        with open(os.path.join(ROOT, "mk", "blocks.mk")) as f:
            text = f.read()
        for d in provenance.EXCLUDE_DIRS:
            self.assertNotIn(d + "/", text, f"mk/blocks.mk lists files of {d}: drop it from EXCLUDE_DIRS")

    def test_check_fresh_and_stale_tables(self):
        fp = provenance.fingerprint()
        fresh = provenance.visible_line(fp, self.c1, fp) + "\n" + provenance.provenance_line(fp, self.c1)
        self.assertEqual(self.check(table("t", fresh))[0], 0)
        self.write("sim/a.txt", "changed")
        self.commit("two")
        head = provenance.fingerprint()
        rc, out = self.check(table("t", fresh))  # the same text, the simulator changed under it
        self.assertEqual(rc, 1, out)
        self.assertIn("table t is stale and not marked so: 1 source file(s) changed since commit", out)
        self.assertIn("sim/a.txt", out)
        marked = provenance.visible_line(fp, self.c1, head) + "\n" + provenance.provenance_line(fp, self.c1)
        self.assertIn(provenance.STALE_MARK, marked)
        self.assertEqual(self.check(table("t", marked))[0], 0)
        now = provenance.visible_line(head, None, head) + "\n" + provenance.provenance_line(head, None)
        self.assertEqual(self.check(table("t", now))[0], 0)
        rc, out = self.check(table("t", now + "\n" + provenance.STALE_MARK))
        self.assertEqual(rc, 1, out)
        self.assertIn("says it is stale but its sources", out)
        rc, out = self.check(table("t", "no provenance at all"))
        self.assertEqual(rc, 1, out)
        self.assertIn("table t names no sources", out)

    def test_restamp_without_results(self):
        """figures.py docs keeps a table it has no results for, its line rewritten for this tree."""
        fp = provenance.fingerprint()
        fresh = table("t", provenance.visible_line(fp, self.c1, fp) + "\n" + provenance.provenance_line(fp, self.c1))
        self.write("sim/a.txt", "changed")
        self.commit("two")
        head = provenance.fingerprint()
        self.assertEqual(self.check(fresh)[0], 1)
        stamped = provenance.restamp(fresh, head)
        self.assertIn(provenance.STALE_MARK, stamped)
        self.assertIn("| 1 |", stamped)  # the figures stay
        self.assertEqual(self.check(stamped)[0], 0)
        self.assertEqual(provenance.restamp(stamped, fp), fresh)  # back at those sources: current again

    def test_results_md_is_current_or_marked(self):
        """The guard itself: every table of docs/RESULTS.md is from this tree's sources or says it is not."""
        r = subprocess.run([sys.executable, TOOL, "check"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)


if __name__ == "__main__":
    tap.main(sys.modules[__name__])
