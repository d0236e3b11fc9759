# What the benchmarks that write a figures table into their README share,
# sourced by bench/*/run.sh after they cd to the repository's top.
#
# `table_args ARGS...` reads a run.sh's own arguments: `--table` sets
# `table=1`, `--db DB` sets `db`, and the rest are kept in the array `args`
# for the benchmark itself.
#
# `niced CMD...` runs one measurement at a lower priority, shows its output
# on stderr and keeps it in `out`; `table_row CELL...` adds a row to the
# table; `write_table README MARKER CAPTION COLUMN...` prints the table and
# puts it, under CAPTION, between README's lines `<!-- MARKER -->` and
# `<!-- end of NAME -->` (NAME: MARKER up to its colon), replacing what
# stood there, or appends it when README has no such lines yet.

table_args() {
  table=0
  db=
  args=()
  rows=
  while [ $# -gt 0 ]; do
    case "$1" in
      --table) table=1 ;;
      --db) db="$2"; shift ;;
      *) args+=("$1") ;;
    esac
    shift
  done
}

niced() {
  out=$(nice -n 10 "$@")
  echo "$out" >&2
}

table_row() {
  local cell line="|"
  for cell in "$@"; do line="$line $cell |"; done
  rows="$rows$line"$'\n'
}

write_table() {
  local readme="$1" marker="$2" caption="$3" head="|" rule="|" column
  shift 3
  for column in "$@"; do
    head="$head $column |"
    rule="$rule---|"
  done
  local table="$head"$'\n'"$rule"$'\n'"$rows"
  echo "$table"
  local begin="<!-- $marker -->" end="<!-- end of ${marker%%:*} -->"
  python3 - "$readme" "$begin" "$end" "$begin"$'\n'"$caption"$'\n\n'"$table$end" <<'PY'
import sys
path, begin, end, block = sys.argv[1:]
text = open(path).read()
if begin in text and end in text:
    text = text[:text.index(begin)] + block + text[text.index(end) + len(end):]
else:
    text = text.rstrip("\n") + "\n\n" + block + "\n"
open(path, "w").write(text)
PY
}
