function __cairn-reconcile_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __cairn-reconcile_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __cairn-reconcile_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __cairn-reconcile_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __cairn-reconcile_parse_tokens -S
    set -l unparsed_tokens (__cairn-reconcile_tokens -pc)
    switch $unparsed_tokens[1]
    case 'cairn-reconcile'
        __cairn-reconcile_parse_subcommand 1 'v/verbose' 'q/quiet' 'profile=' 'quarantine-days=' 'strictness=' 'server=' 'skip-incomplete-roots' 'no-trash' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __cairn-reconcile_parse_subcommand -r 1 'version'
        end
    end
end

function __cairn-reconcile_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __cairn-reconcile_parse_subcommand -S -a positional_count
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

function __cairn-reconcile_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __cairn-reconcile_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__cairn-reconcile_tokens -p)
    if test -z "$(__cairn-reconcile_tokens -t)"
        set -l index (count (__cairn-reconcile_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'cairn-reconcile' -f
complete -c 'cairn-reconcile' -n '__cairn-reconcile_should_offer_completions_for_flags_or_options "cairn-reconcile" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-reconcile' -n '__cairn-reconcile_should_offer_completions_for_flags_or_options "cairn-reconcile" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-reconcile' -n '__cairn-reconcile_should_offer_completions_for_flags_or_options "cairn-reconcile" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-reconcile' -n '__cairn-reconcile_should_offer_completions_for_flags_or_options "cairn-reconcile" quarantine-days' -l 'quarantine-days' -d 'Days a confirmed deletion waits before it may be trashed (0 to 90) (default 14, or CAIRN_QUARANTINE_DAYS).' -rfka ''
complete -c 'cairn-reconcile' -n '__cairn-reconcile_should_offer_completions_for_flags_or_options "cairn-reconcile" strictness' -l 'strictness' -d 'trusting: unconfirmed deletions may be trashed; strict: they wait for review (default trusting, or CAIRN_STRICTNESS).' -rfka ''
complete -c 'cairn-reconcile' -n '__cairn-reconcile_should_offer_completions_for_flags_or_options "cairn-reconcile" server' -l 'server' -d 'Read the server\'s assets from FILE (cairn-fetch output) instead of running cairn-fetch.' -rF
complete -c 'cairn-reconcile' -n '__cairn-reconcile_should_offer_completions_for_flags_or_options "cairn-reconcile" skip-incomplete-roots' -l 'skip-incomplete-roots' -d 'Go on when some roots are incomplete, empty or missing: nothing under them counts as gone.'
complete -c 'cairn-reconcile' -n '__cairn-reconcile_should_offer_completions_for_flags_or_options "cairn-reconcile" no-trash' -l 'no-trash' -d 'Do not look for deletion signals: in trash folders, and in Android\'s trash beside the photos.'
complete -c 'cairn-reconcile' -n '__cairn-reconcile_should_offer_completions_for_positional "cairn-reconcile" -eq 1' -F
complete -c 'cairn-reconcile' -n '__cairn-reconcile_should_offer_completions_for_flags_or_options "cairn-reconcile" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-reconcile' -n '__cairn-reconcile_should_offer_completions_for_flags_or_options "cairn-reconcile" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-reconcile' -n '__cairn-reconcile_should_offer_completions_for_positional "cairn-reconcile" -eq 2' -fa 'help' -d 'Show subcommand help information.'
complete -c 'cairn-reconcile' -n '__cairn-reconcile_should_offer_completions_for_flags_or_options "cairn-reconcile help" version' -l 'version' -d 'Show the version.'
