#!/usr/bin/env bash
# Rebuilds the PDF corpus of docs/decisions/0001-pdf-engine.md into a folder, from
# local git mirrors of its source repositories: each line of the list names repo@commit:path, and
# the file is taken with `git show commit:path` from MIRRORS/owner+name/repo (the layout the
# session's fetch tool writes; any bare or normal clone of the repository works there too).
# The PDFs are not committed (their licences vary): see docs/pdf-corpus.md.
#
#   scripts/pdf-corpus-fetch.sh OUT_DIR [LIST] [MIRRORS]
#
# LIST defaults to docs/decisions/0001-pdf-engine-corpus.txt, MIRRORS to /work/.mirror. Files land
# as OUT_DIR/owner+name/path-with-slashes-as-double-underscores.pdf; a file missing from its mirror
# (not fetched, or stored outside git) is named on stderr and counted, and the script goes on.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/pdf-corpus-fetch.sh OUT_DIR [LIST] [MIRRORS]}
list=${2:-docs/decisions/0001-pdf-engine-corpus.txt}
mirrors=${3:-/work/.mirror}
mkdir -p "$out"
written=0 missing=0
while IFS= read -r line; do
  [[ -z "$line" || "$line" == \#* ]] && continue
  repo=${line%%@*} rest=${line#*@}
  commit=${rest%%:*} path=${rest#*:}
  git_dir=$mirrors/${repo/\//+}/repo
  [[ -d "$git_dir" ]] || git_dir=$mirrors/${repo/\//+}
  target=$out/${repo/\//+}/${path//\//__}
  mkdir -p "$(dirname "$target")"
  if git --git-dir="$git_dir" show "$commit:$path" >"$target.part" 2>/dev/null; then
    mv "$target.part" "$target"
    written=$((written + 1))
  else
    rm -f "$target.part"
    echo "missing: $line (no mirror at $git_dir, or the blob is not in it)" >&2
    missing=$((missing + 1))
  fi
done <"$list"
echo "$written files written to $out, $missing missing"
