function __cairn-trash_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __cairn-trash_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __cairn-trash_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __cairn-trash_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __cairn-trash_parse_tokens -S
    set -l unparsed_tokens (__cairn-trash_tokens -pc)
    switch $unparsed_tokens[1]
    case 'cairn-trash'
        __cairn-trash_parse_subcommand 1 'v/verbose' 'q/quiet' 'profile=' 'dry-run' 'y/yes' 'batch-size=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __cairn-trash_parse_subcommand -r 1 'version'
        end
    end
end

function __cairn-trash_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __cairn-trash_parse_subcommand -S -a positional_count
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

function __cairn-trash_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __cairn-trash_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__cairn-trash_tokens -p)
    if test -z "$(__cairn-trash_tokens -t)"
        set -l index (count (__cairn-trash_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'cairn-trash' -f
complete -c 'cairn-trash' -n '__cairn-trash_should_offer_completions_for_flags_or_options "cairn-trash" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-trash' -n '__cairn-trash_should_offer_completions_for_flags_or_options "cairn-trash" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-trash' -n '__cairn-trash_should_offer_completions_for_flags_or_options "cairn-trash" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-trash' -n '__cairn-trash_should_offer_completions_for_flags_or_options "cairn-trash" dry-run' -l 'dry-run' -d 'Show what would be done; change nothing.'
complete -c 'cairn-trash' -n '__cairn-trash_should_offer_completions_for_flags_or_options "cairn-trash" y yes' -l 'yes' -s 'y' -d 'Go ahead without asking on the terminal (what would be done is still said).'
complete -c 'cairn-trash' -n '__cairn-trash_should_offer_completions_for_flags_or_options "cairn-trash" batch-size' -l 'batch-size' -d 'Assets per DELETE request, 2 to 1000.' -rfka ''
complete -c 'cairn-trash' -n '__cairn-trash_should_offer_completions_for_positional "cairn-trash" -eq 1' -F
complete -c 'cairn-trash' -n '__cairn-trash_should_offer_completions_for_flags_or_options "cairn-trash" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-trash' -n '__cairn-trash_should_offer_completions_for_flags_or_options "cairn-trash" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-trash' -n '__cairn-trash_should_offer_completions_for_positional "cairn-trash" -eq 2' -fa 'help' -d 'Show subcommand help information.'
complete -c 'cairn-trash' -n '__cairn-trash_should_offer_completions_for_flags_or_options "cairn-trash help" version' -l 'version' -d 'Show the version.'
