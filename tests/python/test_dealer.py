#!/usr/bin/env python3
"""The match runner's pair dealer (tools/dealer.py): an SPRT ends with the
verdict of every pair played, the ones in play at a crossing included.

    python3 tests/python/test_dealer.py

No engines: workers are threads that "play" a pair by waiting for the
test to release it, so the order of events is fixed.
"""
import pathlib
import sys
import threading
import time
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
from dealer import PairDealer  # noqa: E402


class Match:
    """A stand-in for the runner: a running score and a decision rule."""

    def __init__(self, todo, bound=2, deadline=None):
        self.lock = threading.Lock()
        self.score = 0  # stands for the LLR
        self.bound = bound
        self.counted = []
        self.dealer = PairDealer(todo, self.lock, decided=lambda: abs(self.score) >= self.bound,
                                 deadline=deadline)

    def count(self, index, points):
        with self.lock:
            self.counted.append(index)
            self.score += points
            self.dealer.finished()


def worker(match, taken, release):
    """Takes pairs until told to stop; each pair's points come from `release`."""
    while (index := match.dealer.take()) is not None:
        taken.append(index)
        points = release[index].get()
        match.count(index, points)


class Slot:
    """A one-shot value a worker blocks on."""

    def __init__(self):
        self._event, self._value = threading.Event(), None

    def put(self, value):
        self._value = value
        self._event.set()

    def get(self):
        assert self._event.wait(5), "the test never released this pair"
        return self._value


def wait_until(condition, seconds=5):
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


class PairDealerTest(unittest.TestCase):
    def run_workers(self, match, n, release):
        taken = []
        threads = [threading.Thread(target=worker, args=(match, taken, release), daemon=True) for _ in range(n)]
        for t in threads:
            t.start()
        return taken, threads

    def start_with_a_crossing(self):
        """Two workers on ten pairs, bound 2: pair 0 has crossed it and
        is counted, pair 1 is still in play."""
        match = Match(range(10), bound=2)
        release = {i: Slot() for i in range(10)}
        taken, threads = self.run_workers(match, 2, release)
        wait_until(lambda: len(taken) == 2)
        release[0].put(2)
        wait_until(lambda: len(match.counted) == 1)
        return match, release, taken, threads

    def assert_all_stop(self, threads):
        for t in threads:
            t.join(5)
            self.assertFalse(t.is_alive())

    def test_deals_every_pair_without_a_decision(self):
        match = Match(range(6), bound=100)
        release = {i: Slot() for i in range(6)}
        for slot in release.values():
            slot.put(1)
        taken, threads = self.run_workers(match, 2, release)
        for t in threads:
            t.join(5)
        self.assertEqual(sorted(match.counted), list(range(6)))
        self.assertEqual(match.dealer.in_flight, 0)

    def test_in_flight_pair_that_undoes_the_crossing_lets_dealing_go_on(self):
        # Pairs 0 and 1 are in play; pair 0 crosses the bound (score 2),
        # pair 1 brings it back inside (score 1): the run must go on.
        match, release, taken, threads = self.start_with_a_crossing()
        time.sleep(0.1)  # a worker that dealt now would have taken pair 2
        self.assertEqual(sorted(taken), [0, 1], "a pair was dealt while the test looked decided")
        release[1].put(-1)
        wait_until(lambda: len(taken) >= 3)
        self.assertIn(2, taken, "dealing did not resume after the LLR came back inside")
        # Now decide for good: both pairs in play push the score to 3.
        for i in range(2, 10):
            release[i].put(1)
        self.assert_all_stop(threads)
        self.assertGreaterEqual(match.score, 2)
        self.assertEqual(sorted(match.counted), sorted(taken))
        self.assertLess(len(match.counted), 10, "the decided run dealt every pair")

    def test_crossing_confirmed_by_the_pairs_in_play_ends_the_run(self):
        match, release, taken, threads = self.start_with_a_crossing()
        release[1].put(1)
        self.assert_all_stop(threads)
        self.assertEqual(sorted(match.counted), [0, 1])
        self.assertEqual(match.score, 3)

    def test_a_resumed_run_that_is_already_decided_deals_nothing(self):
        match = Match(range(10), bound=2)
        match.score = 5
        release = {i: Slot() for i in range(10)}
        taken, threads = self.run_workers(match, 2, release)
        self.assert_all_stop(threads)
        self.assertEqual(taken, [])

    def test_halt_ends_a_waiting_worker(self):
        # Decided, pair 1 still in play: a worker waits.
        match, release, taken, threads = self.start_with_a_crossing()
        match.dealer.halt.set()
        release[1].put(-1)  # back inside, but halted: nothing more is dealt
        self.assert_all_stop(threads)
        self.assertEqual(sorted(taken), [0, 1])

    def test_deadline_stops_dealing(self):
        match = Match(range(10), bound=100, deadline=time.monotonic() - 1)
        release = {i: Slot() for i in range(10)}
        taken, threads = self.run_workers(match, 2, release)
        for t in threads:
            t.join(5)
        self.assertEqual(taken, [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
