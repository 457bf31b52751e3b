# bash completion for cairn-nightly (hand-written: it is a script, not an argument-parser tool)
_cairn_nightly() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  case $prev in
    --approve | --exclude) COMPREPLY=($(compgen -W "all-pending burst" -- "$cur")); return ;;
    --override-threshold) COMPREPLY=(); return ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "-n --dry-run --approve --exclude --override-threshold --notify-test
      -h --help --version" -- "$cur"))
  else
    COMPREPLY=($(compgen -d -- "$cur"))
  fi
}
complete -F _cairn_nightly cairn-nightly
