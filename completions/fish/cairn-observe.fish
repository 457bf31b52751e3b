function __cairn-observe_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __cairn-observe_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __cairn-observe_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __cairn-observe_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __cairn-observe_parse_tokens -S
    set -l unparsed_tokens (__cairn-observe_tokens -pc)
    switch $unparsed_tokens[1]
    case 'cairn-observe'
        __cairn-observe_parse_subcommand 1 'v/verbose' 'q/quiet' 'profile=' 'server=' 'no-trash' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'record'
            __cairn-observe_parse_subcommand 1 'v/verbose' 'q/quiet' 'profile=' 'server=' 'no-trash' 'version' 'h/help'
        case 'list'
            __cairn-observe_parse_subcommand 0 'v/verbose' 'q/quiet' 'profile=' 'server=' 'exclusions' 'table' 'records' 'version' 'h/help'
        case 'show'
            __cairn-observe_parse_subcommand 1 'v/verbose' 'q/quiet' 'profile=' 'server=' 'version' 'h/help'
        case 'exclude'
            __cairn-observe_parse_subcommand -r 1 'v/verbose' 'q/quiet' 'profile=' 'server=' 'reason=' 'version' 'h/help'
        case 'include'
            __cairn-observe_parse_subcommand -r 1 'v/verbose' 'q/quiet' 'profile=' 'server=' 'version' 'h/help'
        case 'import'
            __cairn-observe_parse_subcommand 1 'v/verbose' 'q/quiet' 'profile=' 'server=' 'as=' 'reason=' 'version' 'h/help'
        case 'reset'
            __cairn-observe_parse_subcommand 0 'v/verbose' 'q/quiet' 'profile=' 'server=' 'y/yes' 'version' 'h/help'
        case 'watch'
            __cairn-observe_parse_subcommand -r 1 'v/verbose' 'q/quiet' 'profile=' 'server=' 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'status'
                __cairn-observe_parse_subcommand 0 'v/verbose' 'q/quiet' 'profile=' 'server=' 'version' 'h/help'
            end
        case 'help'
            __cairn-observe_parse_subcommand -r 1 'version'
        end
    end
end

function __cairn-observe_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __cairn-observe_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __cairn-observe_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __cairn-observe_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__cairn-observe_tokens -p)
    if test -z "$(__cairn-observe_tokens -t)"
        set -l index (count (__cairn-observe_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'cairn-observe' -f
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe" server' -l 'server' -d 'Take the server and user from FILE\'s header (cairn-fetch output) instead of running \'cairn-fetch identity\'.' -rF
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe" no-trash' -l 'no-trash' -d 'Do not look in trash folders for deletion signals.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_positional "cairn-observe" -eq 1' -F
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_positional "cairn-observe" -eq 2' -fa 'record' -d 'Record a scan and pass it through'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_positional "cairn-observe" -eq 2' -fa 'list' -d 'List the observed store (or the exclusions)'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_positional "cairn-observe" -eq 2' -fa 'show' -d 'Show what cairn remembers about one checksum or file'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_positional "cairn-observe" -eq 2' -fa 'exclude' -d 'Protect checksums from ever being trashed'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_positional "cairn-observe" -eq 2' -fa 'include' -d 'Lift exclusions, so the checksums are reconciled again'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_positional "cairn-observe" -eq 2' -fa 'import' -d 'Add a list of checksums as observed or as exclusions'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_positional "cairn-observe" -eq 2' -fa 'reset' -d 'Forget every observation of the partition (exclusions stay)'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_positional "cairn-observe" -eq 2' -fa 'watch' -d 'Follow the library and record each deletion as it happens'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_positional "cairn-observe" -eq 2' -fa 'help' -d 'Show subcommand help information.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe record" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe record" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe record" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe record" server' -l 'server' -d 'Take the server and user from FILE\'s header (cairn-fetch output) instead of running \'cairn-fetch identity\'.' -rF
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe record" no-trash' -l 'no-trash' -d 'Do not look in trash folders for deletion signals.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_positional "cairn-observe record" -eq 1' -F
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe record" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe record" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe list" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe list" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe list" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe list" server' -l 'server' -d 'Take the server and user from FILE\'s header (cairn-fetch output) instead of running \'cairn-fetch identity\'.' -rF
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe list" exclusions' -l 'exclusions' -d 'List the exclusions instead.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe list" table' -l 'table' -d 'Print a table for people, even into a pipe or a file.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe list" records' -l 'records' -d 'Write records, even on a terminal.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe list" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe show" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe show" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe show" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe show" server' -l 'server' -d 'Take the server and user from FILE\'s header (cairn-fetch output) instead of running \'cairn-fetch identity\'.' -rF
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_positional "cairn-observe show" -eq 1' -F
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe show" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe exclude" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe exclude" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe exclude" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe exclude" server' -l 'server' -d 'Take the server and user from FILE\'s header (cairn-fetch output) instead of running \'cairn-fetch identity\'.' -rF
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe exclude" reason' -l 'reason' -d 'Why, for the record.' -rfka ''
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_positional "cairn-observe exclude" -ge 1' -F
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe exclude" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe exclude" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe include" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe include" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe include" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe include" server' -l 'server' -d 'Take the server and user from FILE\'s header (cairn-fetch output) instead of running \'cairn-fetch identity\'.' -rF
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_positional "cairn-observe include" -ge 1' -F
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe include" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe include" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe import" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe import" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe import" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe import" server' -l 'server' -d 'Take the server and user from FILE\'s header (cairn-fetch output) instead of running \'cairn-fetch identity\'.' -rF
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe import" as' -l 'as' -d 'What the checksums become: observed or exclusions.' -rfka 'observed exclusions'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe import" reason' -l 'reason' -d 'Why, for exclusions.' -rfka ''
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_positional "cairn-observe import" -eq 1' -F
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe import" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe import" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe reset" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe reset" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe reset" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe reset" server' -l 'server' -d 'Take the server and user from FILE\'s header (cairn-fetch output) instead of running \'cairn-fetch identity\'.' -rF
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe reset" y yes' -l 'yes' -s 'y' -d 'Go ahead without asking on the terminal (what would be done is still said).'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe reset" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe reset" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe watch" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe watch" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe watch" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe watch" server' -l 'server' -d 'Take the server and user from FILE\'s header (cairn-fetch output) instead of running \'cairn-fetch identity\'.' -rF
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_positional "cairn-observe watch" -ge 1' -fa '(__cairn-observe_complete_directories)'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe watch" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe watch" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_positional "cairn-observe watch" -eq 2' -fa 'status' -d 'Say whether a watcher runs (pid), its roots, last event and recent gaps'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe watch status" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe watch status" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe watch status" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe watch status" server' -l 'server' -d 'Take the server and user from FILE\'s header (cairn-fetch output) instead of running \'cairn-fetch identity\'.' -rF
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe watch status" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe watch status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-observe' -n '__cairn-observe_should_offer_completions_for_flags_or_options "cairn-observe help" version' -l 'version' -d 'Show the version.'
