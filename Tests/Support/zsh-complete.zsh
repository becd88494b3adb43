# zsh -f zsh-complete.zsh SCRIPT LINE: types LINE and a Tab into an interactive zsh that ran
# compinit and sourced SCRIPT, and prints what completion offered, one "offered: WORD" a line,
# after "registered: 1 _pushpreview" (whether the function exists, and what compdef bound).
# compadd is wrapped to print the matches instead of inserting them; the rest is zsh's own.
zmodload zsh/zpty || exit 3
zpty shell zsh -f -i
zpty -w shell "PS1='ready> '; autoload -U compinit; compinit -u -D; source ${(q)1}"
zpty -w shell 'compadd() { local -a found; builtin compadd -O found "$@"; print -rl -- ${found/#/"offered: "} }'
zpty -w shell 'print -r -- "registered: ${+functions[_pushpreview]} ${_comps[pushpreview]}"'
local output line
integer deadline=$(( SECONDS + 30 ))
# Read until $1 has been printed (or the deadline passes).
until_seen() {
  while (( SECONDS < deadline )); do
    [[ $output == *$~1* ]] && return 0
    zpty -r -t shell line && output+=$line || sleep 0.05
  done
  return 1
}
# Keys typed at the prompt go to the line editor, in order: the Tab's completion runs, Ctrl-U
# empties the line, and the marker prints (quoted apart so that its echo does not match).
until_seen "registered: [01]*ready> " || exit 4
zpty -n -w shell "$2"$'\t\x15'
zpty -w shell "print -r -- 'complet''ion done'"
until_seen 'completion done' || exit 5
zpty -d shell
print -r -- ${output//$'\r'/} | grep -a -o -e 'registered: [01] [_a-z]*' -e 'offered: [^[:space:]]*'
