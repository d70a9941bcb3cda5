#!/usr/bin/env python3
"""Quince driven by a real UCI client: python-chess's SimpleEngine.

Run with the engine binary as QUINCE (default target/release/quince):
    QUINCE=target/release/quince python3 tests/python/test_uci.py

Any warning python-chess logs about the engine's output fails the test.
"""
import logging
import os
import pathlib
import unittest

import chess
import chess.engine

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("QUINCE", str(ROOT / "target" / "release" / "quince"))


class WarningCollector(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(self.format(record))


class QuinceUci(unittest.TestCase):
    def setUp(self):
        self.warnings = WarningCollector()
        logging.getLogger("chess.engine").addHandler(self.warnings)
        self.engine = chess.engine.SimpleEngine.popen_uci(BINARY, timeout=30)

    def tearDown(self):
        self.engine.quit()
        logging.getLogger("chess.engine").removeHandler(self.warnings)
        self.assertEqual(self.warnings.records, [], "python-chess warnings")

    def test_identity_and_options(self):
        self.assertTrue(self.engine.id["name"].startswith("Quince"))
        for option in ["Hash", "Clear Hash", "MultiPV", "UCI_Chess960", "Move Overhead", "Threads", "Ponder",
                       "OwnBook", "BookFile"]:
            self.assertIn(option, self.engine.options)
        self.assertIs(self.engine.options["OwnBook"].default, False)
        self.engine.configure({"Hash": 32, "Move Overhead": 20})

    def test_short_self_play_game(self):
        board = chess.Board()
        while not board.is_game_over(claim_draw=True) and board.ply() < 40:
            result = self.engine.play(board, chess.engine.Limit(white_clock=5, black_clock=5, white_inc=0.05, black_inc=0.05))
            self.assertIsNotNone(result.move)
            self.assertIn(result.move, board.legal_moves)
            if result.ponder is not None:
                board.push(result.move)
                self.assertIn(result.ponder, board.legal_moves)
                board.pop()
            board.push(result.move)
        self.assertGreaterEqual(board.ply(), 10)

    def test_analysis_reports_score_and_pv(self):
        board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
        info = self.engine.analyse(board, chess.engine.Limit(depth=6))
        self.assertEqual(info["depth"], 6)
        self.assertEqual(info["score"].white(), chess.engine.Mate(1))
        self.assertEqual(info["pv"][0], chess.Move.from_uci("f3f7"))
        for key in ["seldepth", "nodes", "nps", "time", "hashfull"]:
            self.assertIn(key, info)

    def test_multipv_analysis(self):
        infos = self.engine.analyse(chess.Board(), chess.engine.Limit(depth=5), multipv=3)
        self.assertEqual(len(infos), 3)
        firsts = {info["pv"][0] for info in infos}
        self.assertEqual(len(firsts), 3)

    def test_infinite_analysis_can_be_stopped(self):
        with self.engine.analysis(chess.Board()) as analysis:
            for info in analysis:
                if info.get("depth", 0) >= 5:
                    break
        self.assertGreaterEqual(analysis.info.get("depth", 0), 5)

    def test_chess960_castling(self):
        # python-chess turns UCI_Chess960 on for a Chess960 board and parses
        # the engine's king-takes-rook castling.
        board = chess.Board("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", chess960=True)
        result = self.engine.play(board, chess.engine.Limit(depth=4))
        self.assertIn(result.move, board.legal_moves)
        castle = chess.Board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", chess960=True)
        result = self.engine.play(castle, chess.engine.Limit(depth=2), root_moves=[chess.Move.from_uci("e1h1")])
        self.assertTrue(castle.is_castling(result.move), result.move)


if __name__ == "__main__":
    unittest.main(verbosity=2)
