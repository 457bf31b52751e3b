# bash completion for cairn, the multi-call binary (hand-written): the tool names first, then
# the tool's own completion, as if cairn-<tool> had been typed.
_cairn() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  local tools="hash observe fetch reconcile gate trash tag restore"
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "$tools help -h --help --version" -- "$cur"))
    return
  fi
  local first=${COMP_WORDS[1]}
  if [ "$first" = help ]; then
    COMPREPLY=()
    [ "$COMP_CWORD" -eq 2 ] && COMPREPLY=($(compgen -W "$tools" -- "$cur"))
    return
  fi
  local tool=cairn-${first#cairn-}
  # bash-completion loads a tool's completion when it is first used; so does this.
  declare -F "_$tool" > /dev/null || __load_completion "$tool" 2> /dev/null || true
  if ! declare -F "_$tool" > /dev/null; then
    COMPREPLY=($(compgen -f -- "$cur"))
    return
  fi
  # "cairn hash" and "cairn-hash" are as long as each other, so the cursor stays where it is.
  COMP_WORDS=("$tool" "${COMP_WORDS[@]:2}")
  COMP_CWORD=$((COMP_CWORD - 1))
  COMP_LINE="$tool${COMP_LINE#cairn "$first"}"
  # As bash calls a completion function: the command, the word being completed, the one before.
  "_$tool" "$tool" "$cur" "${COMP_WORDS[COMP_CWORD - 1]}"
}
complete -o filenames -F _cairn cairn
