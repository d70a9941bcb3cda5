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
# The UCI engine probes the same book: the start position is in it, so `go`
# answers with a book move at once (one of the book's 13 first moves).
reply=$(printf 'uci\nsetoption name OwnBook value true\nsetoption name BookFile value %s\nisready\nposition startpos\ngo depth 20\nquit\n' "$book" \
  | timeout 60 target/release/quince)
echo "$reply" | grep -E '^info string (BookFile|book move)'
echo "$reply" | grep -q '^info string book move ' || { echo "no book move from the UCI engine" >&2; exit 1; }
echo "$reply" | grep -qE '^bestmove [a-h][1-8][a-h][1-8]' || { echo "no bestmove" >&2; exit 1; }
