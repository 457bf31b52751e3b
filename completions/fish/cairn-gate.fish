function __cairn-gate_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __cairn-gate_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __cairn-gate_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __cairn-gate_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __cairn-gate_parse_tokens -S
    set -l unparsed_tokens (__cairn-gate_tokens -pc)
    switch $unparsed_tokens[1]
    case 'cairn-gate'
        __cairn-gate_parse_subcommand 1 'v/verbose' 'q/quiet' 'profile=' 'approve=+' 'exclude=+' 'override-threshold=' 'threshold=' 'floor=' 'plan=' 'review=' 'review-deadline=' 'all' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __cairn-gate_parse_subcommand -r 1 'version'
        end
    end
end

function __cairn-gate_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __cairn-gate_parse_subcommand -S -a positional_count
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

function __cairn-gate_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __cairn-gate_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__cairn-gate_tokens -p)
    if test -z "$(__cairn-gate_tokens -t)"
        set -l index (count (__cairn-gate_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'cairn-gate' -f
complete -c 'cairn-gate' -n '__cairn-gate_should_offer_completions_for_flags_or_options "cairn-gate" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-gate' -n '__cairn-gate_should_offer_completions_for_flags_or_options "cairn-gate" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-gate' -n '__cairn-gate_should_offer_completions_for_flags_or_options "cairn-gate" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-gate' -n '__cairn-gate_should_offer_completions_for_flags_or_options "cairn-gate"' -l 'approve' -d 'Approve a pending or held candidate: an asset id, a checksum, or all-pending (repeatable).' -rfka ''
complete -c 'cairn-gate' -n '__cairn-gate_should_offer_completions_for_flags_or_options "cairn-gate"' -l 'exclude' -d 'Protect a candidate forever: an asset id, a checksum, all-pending or burst (repeatable).' -rfka ''
complete -c 'cairn-gate' -n '__cairn-gate_should_offer_completions_for_flags_or_options "cairn-gate" override-threshold' -l 'override-threshold' -d 'Let exactly this plan through the threshold rail (the digest the refusal printed).' -rfka ''
complete -c 'cairn-gate' -n '__cairn-gate_should_offer_completions_for_flags_or_options "cairn-gate" threshold' -l 'threshold' -d 'Most candidates one run may trash, as a percentage of matched assets (default 1, or CAIRN_THRESHOLD_PERCENT).' -rfka ''
complete -c 'cairn-gate' -n '__cairn-gate_should_offer_completions_for_flags_or_options "cairn-gate" floor' -l 'floor' -d 'Plans with fewer candidates than this pass the threshold (default 5, or CAIRN_FLOOR).' -rfka ''
complete -c 'cairn-gate' -n '__cairn-gate_should_offer_completions_for_flags_or_options "cairn-gate" plan' -l 'plan' -d 'Act only if the stream\'s plan has this digest (the review page\'s command carries it).' -rfka ''
complete -c 'cairn-gate' -n '__cairn-gate_should_offer_completions_for_flags_or_options "cairn-gate" review' -l 'review' -d 'Write the whole plan as a self-contained HTML page with Immich\'s thumbnails to this file.' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'html\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'cairn-gate' -n '__cairn-gate_should_offer_completions_for_flags_or_options "cairn-gate" review-deadline' -l 'review-deadline' -d 'Stop fetching thumbnails for --review after this many seconds (default 60).' -rfka ''
complete -c 'cairn-gate' -n '__cairn-gate_should_offer_completions_for_flags_or_options "cairn-gate" all' -l 'all' -d 'List every item in the preview, not the first 20 per section.'
complete -c 'cairn-gate' -n '__cairn-gate_should_offer_completions_for_positional "cairn-gate" -eq 1' -F
complete -c 'cairn-gate' -n '__cairn-gate_should_offer_completions_for_flags_or_options "cairn-gate" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-gate' -n '__cairn-gate_should_offer_completions_for_flags_or_options "cairn-gate" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-gate' -n '__cairn-gate_should_offer_completions_for_positional "cairn-gate" -eq 2' -fa 'help' -d 'Show subcommand help information.'
complete -c 'cairn-gate' -n '__cairn-gate_should_offer_completions_for_flags_or_options "cairn-gate help" version' -l 'version' -d 'Show the version.'
