# fish completion for cairn, the multi-call binary (hand-written): the tool names first, then
# the tool's own completion, as if cairn-<tool> had been typed.
set -l __cairn_tools hash observe fetch reconcile gate trash tag restore
function __cairn_tool_completion
  set -l tokens (commandline -opc) (commandline -ct)
  set tokens[1] cairn-(string replace -r '^cairn-' '' -- $tokens[2])
  set -e tokens[2]
  complete -C (string join ' ' -- (string escape -- $tokens[1..-2]) "$tokens[-1]")
end
complete -c cairn -f
complete -c cairn -n "not __fish_seen_subcommand_from $__cairn_tools help" -a hash -d 'identify every media file of a library by the SHA-1 Immich uses'
complete -c cairn -n "not __fish_seen_subcommand_from $__cairn_tools help" -a observe -d 'record what the library holds, and inspect or manage that memory'
complete -c cairn -n "not __fish_seen_subcommand_from $__cairn_tools help" -a fetch -d "list the Immich server's assets as asset records"
complete -c cairn -n "not __fish_seen_subcommand_from $__cairn_tools help" -a reconcile -d 'find the server assets whose local files are gone'
complete -c cairn -n "not __fish_seen_subcommand_from $__cairn_tools help" -a gate -d 'check the safety rails, preview the plan and pass on what may be trashed'
complete -c cairn -n "not __fish_seen_subcommand_from $__cairn_tools help" -a trash -d "move the assets of an approved plan to Immich's trash"
complete -c cairn -n "not __fish_seen_subcommand_from $__cairn_tools help" -a tag -d "show cairn's history from the server's run tags, or tag assets"
complete -c cairn -n "not __fish_seen_subcommand_from $__cairn_tools help" -a restore -d "bring assets that cairn trashed back from Immich's trash"
complete -c cairn -n "not __fish_seen_subcommand_from $__cairn_tools help" -a help -d "print a tool's help"
complete -c cairn -n "not __fish_seen_subcommand_from $__cairn_tools help" -s h -l help -d 'list the tools'
complete -c cairn -n "not __fish_seen_subcommand_from $__cairn_tools help" -l version -d 'print the version'
complete -c cairn -n "__fish_seen_subcommand_from help" -a "$__cairn_tools"
complete -c cairn -n "__fish_seen_subcommand_from $__cairn_tools" -a '(__cairn_tool_completion)'
