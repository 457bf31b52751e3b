# fish completion for cairn-nightly (hand-written: it is a script, not an argument-parser tool)
function __cairn_nightly_profiles
  set -l config ~/.config/cairn/config
  set -q XDG_CONFIG_HOME; and set config $XDG_CONFIG_HOME/cairn/config
  sed -n 's/^[[:space:]]*\[profile[[:space:]]*\([^]]*\)\].*/\1/p' $config 2>/dev/null
end
complete -c cairn-nightly -s n -l dry-run -d 'pass --dry-run to cairn-trash instead of --yes'
complete -c cairn-nightly -l approve -x -a 'all-pending' -d 'approve a candidate for this run'
complete -c cairn-nightly -l exclude -x -a 'all-pending burst' -d 'protect a candidate for ever'
complete -c cairn-nightly -l override-threshold -x -d 'let exactly this plan past the threshold'
complete -c cairn-nightly -l notify-test -d 'send a test notification and exit'
complete -c cairn-nightly -l profile -x -a '(__cairn_nightly_profiles)' -d 'run only this profile of the config file'
complete -c cairn-nightly -s h -l help -d 'print a summary of the options'
complete -c cairn-nightly -l version -d 'print the version'
