# Polyglot opening books against a real book: Debian's gnuchess-book
# (GNU Chess's book.bin, about 180,000 entries) is downloaded and unpacked
# without installing it, and tests/book.rs reads it through
# QUINCE_GNUCHESS_BOOK. QUINCE_REQUIRE_BOOK=1 makes the book compulsory
# here: without it the test would only note that it skipped.
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(
  cd "$work"
  # `apt-get download` needs package lists; fetch them if it cannot find the package.
  apt-get download gnuchess-book >/dev/null 2>&1 \
    || { apt-get update -qq && apt-get download gnuchess-book >/dev/null; }
  dpkg -x gnuchess-book_*.deb unpacked
)
book=$(find "$work/unpacked" -name book.bin -type f | head -n 1)
if [ -z "$book" ]; then
  echo "gnuchess-book has no book.bin" >&2
  exit 1
fi
echo "GNU Chess book: $book ($(stat -c %s "$book") bytes)"
export QUINCE_GNUCHESS_BOOK="$book"
export QUINCE_REQUIRE_BOOK=1
cargo test --release --test book
# The UCI engine probes the same book once OwnBook is on: the start
# position is in it, so a game-clock `go` answers with a book move at once
# (one of the book's 13 first moves).
reply=$(printf 'uci\nsetoption name OwnBook value true\nsetoption name BookFile value %s\nisready\nposition startpos\ngo wtime 60000 btime 60000\nquit\n' "$book" \
  | timeout 60 target/release/quince)
echo "$reply" | grep -E '^info string (BookFile|book move)'
echo "$reply" | grep -q '^info string book move ' || { echo "no book move from the UCI engine" >&2; exit 1; }
echo "$reply" | grep -qE '^bestmove [a-h][1-8][a-h][1-8]' || { echo "no bestmove" >&2; exit 1; }
# The defaults as a GUI meets them, with the book installed where the
# engine looks for it by default (as on a Debian host with gnuchess-book):
# OwnBook is off, and every analysis request and timed move searches.
if [ ! -f /usr/share/games/gnuchess/book.bin ]; then
  deb=$(ls "$work"/gnuchess-book_*.deb)
  if [ "$(id -u)" = 0 ]; then
    dpkg -i "$deb" >/dev/null
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo dpkg -i "$deb" >/dev/null
  fi
fi
if [ "${CI:-}" = true ]; then export QUINCE_EXPECT_BOOK=1; fi
QUINCE=target/release/quince python3 tests/python/test_uci_defaults.py
cargo test --release --test uci own_book
