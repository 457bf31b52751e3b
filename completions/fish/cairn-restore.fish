function __cairn-restore_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __cairn-restore_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __cairn-restore_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __cairn-restore_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __cairn-restore_parse_tokens -S
    set -l unparsed_tokens (__cairn-restore_tokens -pc)
    switch $unparsed_tokens[1]
    case 'cairn-restore'
        __cairn-restore_parse_subcommand 1 'v/verbose' 'q/quiet' 'profile=' 'run-id=+' 'asset-id=+' 'file-name-matches=' 'dry-run' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'list'
            __cairn-restore_parse_subcommand 0 'v/verbose' 'q/quiet' 'profile=' 'table' 'records' 'version' 'h/help'
        case 'show'
            __cairn-restore_parse_subcommand 1 'v/verbose' 'q/quiet' 'profile=' 'table' 'records' 'version' 'h/help'
        case 'help'
            __cairn-restore_parse_subcommand -r 1 'version'
        end
    end
end

function __cairn-restore_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __cairn-restore_parse_subcommand -S -a positional_count
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

function __cairn-restore_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __cairn-restore_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__cairn-restore_tokens -p)
    if test -z "$(__cairn-restore_tokens -t)"
        set -l index (count (__cairn-restore_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'cairn-restore' -f
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_flags_or_options "cairn-restore" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_flags_or_options "cairn-restore" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_flags_or_options "cairn-restore" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_flags_or_options "cairn-restore"' -l 'run-id' -d 'Restore every asset of this run still in the trash (repeatable).' -rfka ''
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_flags_or_options "cairn-restore"' -l 'asset-id' -d 'Restore these assets (and the other half of a Live Photo).' -rfka ''
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_flags_or_options "cairn-restore" file-name-matches' -l 'file-name-matches' -d 'Restore assets of cairn runs whose original file name matches this regular expression.' -rfka ''
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_flags_or_options "cairn-restore" dry-run' -l 'dry-run' -d 'Show what would be done; change nothing.'
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_positional "cairn-restore" -eq 1' -F
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_flags_or_options "cairn-restore" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_flags_or_options "cairn-restore" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_positional "cairn-restore" -eq 2' -fa 'list' -d 'List the runs in the local journal (no server needed)'
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_positional "cairn-restore" -eq 2' -fa 'show' -d 'Show one run from the local journal: its assets and their fate since'
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_positional "cairn-restore" -eq 2' -fa 'help' -d 'Show subcommand help information.'
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_flags_or_options "cairn-restore list" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_flags_or_options "cairn-restore list" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_flags_or_options "cairn-restore list" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_flags_or_options "cairn-restore list" table' -l 'table' -d 'Print a table for people, even into a pipe or a file.'
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_flags_or_options "cairn-restore list" records' -l 'records' -d 'Write records, even on a terminal.'
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_flags_or_options "cairn-restore list" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_flags_or_options "cairn-restore list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_flags_or_options "cairn-restore show" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_flags_or_options "cairn-restore show" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_flags_or_options "cairn-restore show" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_flags_or_options "cairn-restore show" table' -l 'table' -d 'Print a table for people, even into a pipe or a file.'
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_flags_or_options "cairn-restore show" records' -l 'records' -d 'Write records, even on a terminal.'
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_flags_or_options "cairn-restore show" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_flags_or_options "cairn-restore show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-restore' -n '__cairn-restore_should_offer_completions_for_flags_or_options "cairn-restore help" version' -l 'version' -d 'Show the version.'
