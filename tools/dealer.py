"""Who plays which pair next, and when an SPRT really stops.

The match runner's workers each take a pair (an opening, played twice with
colours swapped), play it, and come back for the next. With an SPRT the
run must end as soon as the test decides, but a pair that is still being
played when the LLR crosses a bound counts too, and it can bring the LLR
back inside the bounds. A runner that simply stops dealing at the first
crossing then ends "inconclusive" and has to be started again (the v8
network's SPRT did exactly that).

`PairDealer` decides on the LLR of *every finished pair*: once the test
looks decided, no new pair is dealt; the workers wait until the pairs in
play are finished and logged, and look again. Still decided: the run
ends. Back inside the bounds: dealing goes on. So the verdict a run ends
with is always the verdict of all the pairs it played.

`tests/python/test_dealer.py` checks it (no engines needed; CI runs it).
"""
import threading
import time


class PairDealer:
    """Hands out pair indices to the workers of a match.

    * `todo`: the pair indices still to play, in order.
    * `lock`: the lock that guards the match's tally; a pair's result is
      added under it, and `finished()` is called under it after that (in
      a later hold of the lock, so for a moment a counted pair may still
      be in `in_flight`: a waiting worker then waits for the notify).
    * `decided`: a function, called under `lock`, that says whether the
      pairs counted so far decide the match (for an SPRT: the LLR is at or
      beyond a bound); `None` when nothing but `todo` ends the run.
    * `halt`: an event that ends dealing at once (a signal, Ctrl-C); the
      pairs in play are still finished by their workers.
    * `deadline`: a `time.monotonic()` value after which no pair starts.
    """

    # How often a waiting worker looks at `halt` and the deadline again.
    POLL_SECONDS = 0.5

    def __init__(self, todo, lock, decided=None, halt=None, deadline=None):
        self._todo = iter(todo)
        self._cond = threading.Condition(lock)
        self._decided = decided or (lambda: False)
        self.halt = halt or threading.Event()
        self._deadline = deadline
        self.in_flight = 0

    def take(self):
        """The next pair to play, or `None` when this worker should stop.

        Blocks while the match looks decided but pairs are still in play:
        their results may undo the decision.
        """
        with self._cond:
            while True:
                if self.halt.is_set():
                    return None
                if self._deadline is not None and time.monotonic() > self._deadline:
                    return None
                if self._decided():
                    if self.in_flight == 0:
                        self._cond.notify_all()
                        return None
                    self._cond.wait(self.POLL_SECONDS)
                    continue
                index = next(self._todo, None)
                if index is None:
                    return None
                self.in_flight += 1
                return index

    def finished(self):
        """A pair taken with `take()` is counted; call with `lock` held."""
        self.in_flight -= 1
        self._cond.notify_all()
