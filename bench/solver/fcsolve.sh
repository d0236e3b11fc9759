#!/usr/bin/env bash
# Compare `patience solve` with Freecell Solver (fc-solve) on the same boards:
# La Belle Lucie in its last deal (no redeal left) and Fan. fc-solve is never
# fetched or built here: point FCSOLVE at a binary built with more than 18
# stacks (docs/solver.md says how); without it only our columns are printed.
#
#   bench/solver/fcsolve.sh GAME [A..B | N | FILE...]
#
#   GAME   la-belle-lucie (run with --redeals 0) or fan
#   A..B   deals A to B (`patience deal GAME N`); N means 1..N; default 1..20
#   FILE   boards in lblsolve's plain form (one fan a line, top card last,
#          cards like 10D or TD; the foundations hold every card not listed)
#          or in our position text (the `tN:` lines of `patience deal`)
#
# Environment:
#   PATIENCE   our binary (default target/release/patience)
#   FCSOLVE    the fc-solve binary (optional)
#   CPU_S      CPU seconds per board and tool (default 60, by `ulimit -t`): on a
#              shared machine CPU time, not wall time, is the fair budget
#   TIMEOUT    wall seconds per board and tool, a backstop (default 600)
#   MEMORY_MB  address-space cap for fc-solve, which has no budget of its own
#              (default 8192; Fan deal 4 needs about 6 GB)
#
# fc-solve plays these games as Freecell variants with 18 stacks, no free
# cells, suit-built sequences and one card moved at a time:
#   --stacks-num 18 --freecells-num 0 --sequences-are-built-by suit
#   --sequence-move limited --empty-stacks-filled-by none (La Belle Lucie) | kings (Fan)
# With `-sel`, "I could not solve this game." means its search was exhaustive.
#
# Per board: each tool's verdict (win / no-win / unknown / cpu-limit / timeout /
# crash / error), positions, wall and CPU milliseconds of the whole process
# (start-up included, the same for both; ours also shows the solver's own ms), the CPU
# time ratio fc-solve / ours (above 1: we are faster) and whether the verdicts
# agree (yes / NO / - when either is undecided). A summary line closes; an
# undecided run counts in its tool's totals with the time it used, so those
# totals are lower bounds, and "fc-solve used less cpu" counts only boards
# fc-solve answered.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
patience=${PATIENCE:-target/release/patience}
cpu_s=${CPU_S:-60}
timeout_s=${TIMEOUT:-600}
memory_mb=${MEMORY_MB:-8192}
[ -x "$patience" ] || { echo "build it first: cargo build --release -p patience-cli" >&2; exit 2; }
[ $# -ge 1 ] || { sed -n "7,14p" "$0" >&2; exit 2; }
game=$1
shift
case "$game" in
  la-belle-lucie) fill=none ;;
  fan) fill=kings ;;
  *) echo "fc-solve plays only la-belle-lucie and fan, not $game" >&2; exit 2 ;;
esac
fcsolve=${FCSOLVE:-}
if [ -n "$fcsolve" ] && [ ! -x "$fcsolve" ]; then
  echo "FCSOLVE=$fcsolve is not an executable; fc-solve columns skipped" >&2
  fcsolve=
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The boards: "deal N" entries or file paths.
boards=()
if [ $# -eq 0 ]; then set -- 1..20; fi
for arg in "$@"; do
  if [ -f "$arg" ]; then
    boards+=("$arg")
  elif [[ "$arg" =~ ^([0-9]+)\.\.([0-9]+)$ ]]; then
    for n in $(seq "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"); do boards+=("deal:$n"); done
  elif [[ "$arg" =~ ^[0-9]+$ ]]; then
    for n in $(seq 1 "$arg"); do boards+=("deal:$n"); done
  else
    echo "not a file, N or A..B: $arg" >&2
    exit 2
  fi
done

# Run a command under the CPU limit and `timeout`, its output to $1,
# "wall user sys rc" to $2.
timed() {
  local out=$1 tf=$2 rc
  shift 2
  local TIMEFORMAT='%3R %3U %3S'
  { time { (ulimit -t "$cpu_s"; exec timeout "$timeout_s" "$@") > "$out" 2>&1; echo $? > "$tf.rc"; }; } 2> "$tf"
  rc=$(cat "$tf.rc")
  echo "$(tail -1 "$tf") $rc" > "$tf"
}

# Plain fans (or tN: lines) to fc-solve's board: one stack a line, bottom card
# first, T for ten, 18 stacks (empty ones as a bare colon), and a foundations
# line built from the cards missing from the table. Fails on a card that is
# not a card, a card twice, or a suit whose missing cards are not its lowest.
to_fcsolve() {
  awk '
    BEGIN { ranks = "A23456789TJQK"; n = 0; bad = 0 }
    /^[a-z-]+[0-9]*:/ && !/^t[0-9]+:/ { next }
    {
      sub(/^t[0-9]+:/, "")
      line = ""
      for (i = 1; i <= NF; i++) {
        c = toupper($i); sub(/^10/, "T", c)
        if (c !~ /^[A2-9TJQK][HCDS]$/ || (c in seen)) { bad = 1; print "bad card " $i > "/dev/stderr" }
        seen[c] = 1
        line = line " " c
      }
      if (NF > 0) stacks[n++] = line
    }
    END {
      if (bad || n > 18) exit 1
      f = "Foundations:"
      split("H C D S", suits, " ")
      for (s = 1; s <= 4; s++) {
        home = 0
        for (r = 1; r <= 13; r++) if (!((substr(ranks, r, 1) suits[s]) in seen)) home = r
        for (r = 1; r <= home; r++) if ((substr(ranks, r, 1) suits[s]) in seen) { print "suit " suits[s] " has a gap" > "/dev/stderr"; exit 1 }
        f = f " " suits[s] "-" (home ? substr(ranks, home, 1) : "0")
      }
      print f
      for (i = 0; i < 18; i++) print ":" (i < n ? stacks[i] : "")
    }'
}

# How a run ended, from its exit code: 124 is `timeout`, 128+SIGXCPU or
# 128+SIGKILL the CPU limit, any other signal a crash, which is what fc-solve
# does when MEMORY_MB runs out (it does not check its allocations).
killed() { # rc
  case "$1" in
    124) echo timeout ;;
    152|137) echo cpu-limit ;;
    *) [ "$1" -gt 128 ] && echo crash ;;
  esac
}

# fc-solve's status line to a verdict word.
fcs_verdict() { # outfile rc
  local k
  k=$(killed "$2")
  if [ -n "$k" ]; then echo "$k"; return; fi
  if grep -q "^This game is solveable" "$1"; then echo win
  elif grep -q "^I could not solve this game" "$1"; then echo no-win
  elif grep -q "^Iterations count exceeded" "$1"; then echo unknown
  else echo error; fi
}

json_field() { sed -n "s/.*\"$1\":\"\{0,1\}\([^\",}]*\).*/\1/p" "$2" | head -1; }

printf "%-10s %-8s %10s %9s %9s %9s" board ours positions solve-ms wall-ms cpu-ms
[ -n "$fcsolve" ] && printf " | %-8s %10s %9s %9s %8s %s" fc-solve states wall-ms cpu-ms ratio agree
echo
sum() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a + b }'; }
n=0; decided=0; agree=0; disagree=0; faster=0; o_open=0; f_open=0
o_wall=0; o_cpu=0; f_wall=0; f_cpu=0
for b in "${boards[@]}"; do
  n=$((n + 1))
  plain="$tmp/plain"
  if [[ "$b" == deal:* ]]; then
    deal=${b#deal:}
    label="deal $deal"
    "$patience" deal "$game" "$deal" | sed -n 's/^t[0-9]*: *//p' > "$plain"
    if [ "$game" = fan ]; then ours=(--deal "$deal"); else ours=(--position "$plain" --redeals 0); fi
  else
    label=$(basename "$b")
    cp "$b" "$plain"
    ours=(--position "$plain")
    [ "$game" = la-belle-lucie ] && ours+=(--redeals 0)
  fi
  timed "$tmp/ours.json" "$tmp/ours.time" "$patience" solve "$game" "${ours[@]}" --json --time-ms "$((cpu_s * 1000))"
  read -r wall user sys rc < "$tmp/ours.time"
  case "$rc" in
    0|1|3) verdict=$(json_field result "$tmp/ours.json"); verdict=${verdict/unknown-*/unknown} ;;
    *) verdict=$(killed "$rc"); verdict=${verdict:-error} ;;
  esac
  ow=$(awk -v w="$wall" 'BEGIN { printf "%.1f", w * 1000 }')
  oc=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", (u + s) * 1000 }')
  o_wall=$(sum "$o_wall" "$ow"); o_cpu=$(sum "$o_cpu" "$oc")
  case "$verdict" in win|no-win) ;; *) o_open=$((o_open + 1)) ;; esac
  printf "%-10s %-8s %10s %9s %9s %9s" "$label" "$verdict" "$(json_field nodes "$tmp/ours.json")" \
    "$(json_field milliseconds "$tmp/ours.json")" "$ow" "$oc"
  if [ -n "$fcsolve" ]; then
    if to_fcsolve < "$plain" > "$tmp/board.fcs"; then
      ( ulimit -v $((memory_mb * 1024))
        timed "$tmp/fcs.out" "$tmp/fcs.time" "$fcsolve" --stacks-num 18 --freecells-num 0 \
          --sequences-are-built-by suit --empty-stacks-filled-by "$fill" --sequence-move limited \
          -sel "$tmp/board.fcs" )
      read -r fwall fuser fsys frc < "$tmp/fcs.time"
      fverdict=$(fcs_verdict "$tmp/fcs.out" "$frc")
      states=$(sed -n 's/^Total number of states checked is \([0-9]*\)\./\1/p' "$tmp/fcs.out")
    else
      fwall=0; fuser=0; fsys=0; fverdict=error; states=
    fi
    fw=$(awk -v w="$fwall" 'BEGIN { printf "%.1f", w * 1000 }')
    fc=$(awk -v u="$fuser" -v s="$fsys" 'BEGIN { printf "%.1f", (u + s) * 1000 }')
    f_wall=$(sum "$f_wall" "$fw"); f_cpu=$(sum "$f_cpu" "$fc")
    case "$fverdict" in win|no-win) ;; *) f_open=$((f_open + 1)) ;; esac
    ratio=$(awk -v f="$fc" -v o="$oc" 'BEGIN { printf "%.1f", f / (o > 0 ? o : 1) }')
    case "$fverdict" in
      win|no-win) awk -v f="$fc" -v o="$oc" 'BEGIN { exit !(f < o) }' && faster=$((faster + 1)) ;;
    esac
    case "$verdict/$fverdict" in
      win/win|no-win/no-win) same=yes; decided=$((decided + 1)); agree=$((agree + 1)) ;;
      win/no-win|no-win/win) same=NO; decided=$((decided + 1)); disagree=$((disagree + 1)) ;;
      *) same=- ;;
    esac
    printf " | %-8s %10s %9s %9s %8s %s" "$fverdict" "${states:--}" "$fw" "$fc" "$ratio" "$same"
  fi
  echo
done
printf "summary %s: %d boards; ours wall %.0f ms, cpu %.0f ms, %d undecided" "$game" "$n" "$o_wall" "$o_cpu" "$o_open"
if [ -n "$fcsolve" ]; then
  printf "; fc-solve wall %.0f ms, cpu %.0f ms, %d undecided; ratio wall %s, cpu %s; verdicts agree %d of %d decided by both, %d disagree; fc-solve used less cpu on %d" \
    "$f_wall" "$f_cpu" "$f_open" \
    "$(awk -v f="$f_wall" -v o="$o_wall" 'BEGIN { printf "%.1f", f / (o > 0 ? o : 1) }')" \
    "$(awk -v f="$f_cpu" -v o="$o_cpu" 'BEGIN { printf "%.1f", f / (o > 0 ? o : 1) }')" \
    "$agree" "$decided" "$disagree" "$faster"
else
  printf "; fc-solve not run (set FCSOLVE)"
fi
echo
