#!/usr/bin/env python3
"""The tuning build: a `--features tune` Quince offers the search's
constants as UCI options, and setting one changes the search.

    cargo build --release --features tune --target-dir target/tune
    QUINCE_TUNE=target/tune/release/quince python3 tests/python/test_tune.py

The ordinary build (QUINCE, default target/release/quince) must not offer
them: its option list is a contract GUIs and scripts rely on.
"""
import os
import pathlib
import subprocess
import unittest

import chess
import chess.engine

ROOT = pathlib.Path(__file__).resolve().parents[2]
TUNE = os.environ.get("QUINCE_TUNE", str(ROOT / "target" / "tune" / "release" / "quince"))
PLAIN = os.environ.get("QUINCE", str(ROOT / "target" / "release" / "quince"))
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q2/PPPBBPPP/R3K2R w KQkq - 0 1"


def nodes_at_depth(engine, depth):
    """Nodes of a fresh fixed-depth search of Kiwipete (deterministic)."""
    engine.configure({"Clear Hash": None})
    info = engine.analyse(chess.Board(KIWIPETE), chess.engine.Limit(depth=depth), game=object())
    return info["nodes"]


class TuneBuild(unittest.TestCase):
    def setUp(self):
        self.engine = chess.engine.SimpleEngine.popen_uci(TUNE, timeout=30)

    def tearDown(self):
        self.engine.quit()

    def test_parameters_are_spin_options_with_ranges(self):
        option = self.engine.options["rfp_margin"]
        self.assertEqual(option.type, "spin")
        self.assertLessEqual(option.min, option.default)
        self.assertLessEqual(option.default, option.max)
        self.assertIn("lmr_divisor", self.engine.options)

    def test_a_parameter_changes_the_search(self):
        default = nodes_at_depth(self.engine, 10)
        self.assertEqual(nodes_at_depth(self.engine, 10), default, "fixed-depth search is deterministic")
        self.engine.configure({"lmr_divisor": 150})
        changed = nodes_at_depth(self.engine, 10)
        self.assertNotEqual(changed, default)
        self.engine.configure({"lmr_divisor": self.engine.options["lmr_divisor"].default})
        self.assertEqual(nodes_at_depth(self.engine, 10), default, "restoring the default restores the search")

    def test_bad_values_are_refused_with_a_message(self):
        replies = subprocess.run(
            [TUNE], input="setoption name rfp_margin value 9999\nsetoption name rfp_margin value x\nquit\n",
            capture_output=True, text=True, timeout=30,
        ).stdout.splitlines()
        self.assertEqual(len([r for r in replies if r.startswith("info string error: rfp_margin")]), 2, replies)


class PlainBuild(unittest.TestCase):
    def test_the_ordinary_build_offers_no_parameters(self):
        engine = chess.engine.SimpleEngine.popen_uci(PLAIN, timeout=30)
        try:
            self.assertNotIn("rfp_margin", engine.options)
        finally:
            engine.quit()


if __name__ == "__main__":
    unittest.main()
