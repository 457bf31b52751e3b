function __cairn-tag_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __cairn-tag_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __cairn-tag_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __cairn-tag_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __cairn-tag_parse_tokens -S
    set -l unparsed_tokens (__cairn-tag_tokens -pc)
    switch $unparsed_tokens[1]
    case 'cairn-tag'
        __cairn-tag_parse_subcommand 1 'v/verbose' 'q/quiet' 'profile=' 'table' 'records' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'list'
            __cairn-tag_parse_subcommand 1 'v/verbose' 'q/quiet' 'profile=' 'table' 'records' 'version' 'h/help'
        case 'show'
            __cairn-tag_parse_subcommand 1 'v/verbose' 'q/quiet' 'profile=' 'table' 'records' 'version' 'h/help'
        case 'add'
            __cairn-tag_parse_subcommand 2 'v/verbose' 'q/quiet' 'profile=' 'dry-run' 'version' 'h/help'
        case 'help'
            __cairn-tag_parse_subcommand -r 1 'version'
        end
    end
end

function __cairn-tag_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __cairn-tag_parse_subcommand -S -a positional_count
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

function __cairn-tag_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __cairn-tag_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__cairn-tag_tokens -p)
    if test -z "$(__cairn-tag_tokens -t)"
        set -l index (count (__cairn-tag_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'cairn-tag' -f
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag" table' -l 'table' -d 'Print a table for people, even into a pipe or a file.'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag" records' -l 'records' -d 'Write records, even on a terminal.'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_positional "cairn-tag" -eq 1' -fa 'list' -d 'List cairn\'s runs from the server\'s run tags'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_positional "cairn-tag" -eq 1' -fa 'show' -d 'List the assets of one run, trashed ones included'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_positional "cairn-tag" -eq 1' -fa 'add' -d 'Tag the assets named by the records read'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_positional "cairn-tag" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag list" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag list" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag list" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag list" table' -l 'table' -d 'Print a table for people, even into a pipe or a file.'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag list" records' -l 'records' -d 'Write records, even on a terminal.'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag list" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag show" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag show" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag show" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag show" table' -l 'table' -d 'Print a table for people, even into a pipe or a file.'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag show" records' -l 'records' -d 'Write records, even on a terminal.'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag show" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag add" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag add" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag add" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag add" dry-run' -l 'dry-run' -d 'Show what would be done; change nothing.'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_positional "cairn-tag add" -eq 1' -F
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag add" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag add" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-tag' -n '__cairn-tag_should_offer_completions_for_flags_or_options "cairn-tag help" version' -l 'version' -d 'Show the version.'
