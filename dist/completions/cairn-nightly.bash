# bash completion for cairn-nightly (hand-written: it is a script, not an argument-parser tool)
_cairn_nightly() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  case $prev in
    --approve | --exclude) COMPREPLY=($(compgen -W "all-pending burst" -- "$cur")); return ;;
    --override-threshold) COMPREPLY=(); return ;;
    --profile)
      local config=${XDG_CONFIG_HOME:-$HOME/.config}/cairn/config
      COMPREPLY=($(compgen -W "$(sed -n 's/^[[:space:]]*\[profile[[:space:]]*\([^]]*\)\].*/\1/p' \
        "$config" 2>/dev/null)" -- "$cur"))
      return ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "-n --dry-run --approve --exclude --override-threshold --notify-test
      --profile -h --help --version" -- "$cur"))
  else
    COMPREPLY=($(compgen -d -- "$cur"))
  fi
}
complete -F _cairn_nightly cairn-nightly
